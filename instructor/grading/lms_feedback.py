"""Each student's feedback.txt as the LMS takes it in bulk (make export):

Canvas, Assignment > "Upload Submissions" (the zip of a bulk download sent
back with comments): canvas-lms's Assignment#infer_comment_context_from_filename
splits a file's name at '_' and takes its first two all-digit parts as the
user id and the id of a file that user submitted; the file becomes a
comment on that submission. So: LOGIN_USERID_FILEID_feedback.txt, flat, the
ids those of the class download the grading read (lms.py keeps them).

Moodle, Assignment > View all submissions > "Upload multiple feedback files
in a zip": mod/assign/feedback/file/importziplib.php splits each folder
name at '_' into fullname_participantid_plugintype_pluginname and files
what lies inside as that participant's feedback. So:
FULL NAME_PARTICIPANT_assignfeedback_file/feedback.txt ('_' in a name
would shift the fields: it becomes a space).

A student the download does not name (a class folder of the grader's own
layout, or a roster student with nothing handed in, for Canvas: no file to
attach a comment to) is left out, and said."""
import io
import os
import zipfile

from .util import write_atomic


def entry_name(fmt, sid, info):
    """The zip's name of sid's feedback, or None when the LMS could not
    tell whose it is."""
    uid = str(info.get("lms_id") or "")
    if not uid.isdigit() or info.get("lms") != fmt:
        return None
    if fmt == "canvas":
        att = str(info.get("lms_attachment") or "")
        if not att.isdigit():
            return None
        login = "".join(c for c in (info.get("lms_login") or sid) if c.isalnum()) or "student"
        if login.isdigit():
            login = "s" + login  # the first all-digit part is read as the user id
        return f"{login}_{uid}_{att}_feedback.txt"
    name = " ".join((info.get("name") or sid).replace("_", " ").replace("/", " ").split()) or sid
    return f"{name}_{uid}_assignfeedback_file/feedback.txt"


HELD = "Your grade for this lab is held for review; your instructor will be in touch.\n"


def build(out, fmt, students, sids, held=()):
    """OUT/feedback-FORMAT.zip of the students sids (the gradebook's) with
    students/SID/feedback.txt, or for a student held (HOLD) a line that
    says so, not the grade; returns (path, [sid in it], [sid left out])."""
    buf = io.BytesIO()
    put, left = [], []
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for sid in sids:
            name = entry_name(fmt, sid, students.get(sid, {}))
            path = os.path.join(out, "students", sid, "feedback.txt")
            if name is None or not os.path.isfile(path):
                left.append(sid)
                continue
            if sid in held:
                z.writestr(name, HELD)
            else:
                z.write(path, name)
            put.append(sid)
    zpath = os.path.join(out, f"feedback-{fmt}.zip")
    write_atomic(zpath, buf.getvalue())
    return zpath, put, left
