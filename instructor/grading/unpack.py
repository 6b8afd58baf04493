"""The class folder and what one entry of it holds: a folder with the
lab's student files (at any depth), or one archive of them. Archives are
unpacked with Python's own readers: no path outside the folder, no links,
no devices, at most MAX_UNPACKED."""
import os
import shutil
import tarfile
import zipfile

from .util import MAX_FILE, STATUS_MISSING, STATUS_REJECTED, Problem

ARCHIVES = (".tar.gz", ".tgz", ".tar", ".zip")
MAX_UNPACKED = 64 << 20     # all of one archive, unpacked
MAX_CLASS = 8 << 30         # all of a whole-class archive, unpacked


def student_id(name):
    """An entry's name without its archive extension, in safe characters."""
    for ext in ARCHIVES:
        if name.endswith(ext):
            name = name[:-len(ext)]
            break
    return "".join(c if c.isalnum() or c in "-_.@" else "_" for c in name)


def submissions(folder):
    """{student id: path} of the class folder's entries (folders and
    archives; links too, which refused() then turns away)."""
    out = {}
    for n in sorted(os.listdir(folder)):
        p = os.path.join(folder, n)
        if n.startswith(".") or not (os.path.isdir(p) or n.endswith(ARCHIVES) or os.path.islink(p)):
            continue
        sid = student_id(n)
        while sid in out:
            sid += "_"
        out[sid] = p
    return out


def class_entries(folder, only=None):
    """{student id: absolute path} of the entries to grade (only: a
    comma-separated list of ids, --only: those)."""
    subs = submissions(folder)
    if only:
        keep = set(only.split(","))
        subs = {k: v for k, v in subs.items() if k in keep}
    # Not abspath of the entry: one that is a link must stay one to be refused.
    return {sid: os.path.join(os.path.abspath(folder), os.path.basename(p)) for sid, p in subs.items()}


def refused(folder, path):
    """Why an entry of the class folder is not graded, or None: a link (to
    the kit's reference, say, which would then be graded as the student's
    work) or a path that leads outside the folder."""
    if os.path.islink(path):
        return f"the entry is a symbolic link (to {os.readlink(path)}), not a student's files: not graded"
    real, top = os.path.realpath(path), os.path.realpath(folder)
    if os.path.commonpath([real, top]) != top or real == top:
        return f"the entry leads outside the submissions folder (to {real}): not graded"
    return None


def zip_name(info):
    """A zip entry's name as it was written: without the UTF-8 flag Python
    reads it as CP437, which is how Info-ZIP's zip and many others store a
    UTF-8 name (müllerjan_... would be m├╝llerjan_...)."""
    if info.flag_bits & 0x800:
        return info.filename
    try:
        return info.filename.encode("cp437").decode("utf-8")
    except UnicodeError:
        return info.filename


def archive_files(archive):
    """The regular files of a zip or tar archive: (name, size, open), links,
    folders and devices left out."""
    if archive.endswith(".zip"):
        z = zipfile.ZipFile(archive)
        return z, [(zip_name(i), i.file_size, lambda i=i: z.open(i)) for i in z.infolist()
                   if not i.is_dir() and (i.external_attr >> 28) != 0o12]
    t = tarfile.open(archive)
    return t, [(m.name, m.size, lambda m=m: t.extractfile(m)) for m in t.getmembers() if m.isfile()]


def unpack(archive, dest, limit=MAX_UNPACKED):
    """Writes the archive's regular files under dest, each name made
    relative: none can reach outside dest, whatever Python's tarfile
    offers (Debian 12's 3.11.2 has no extraction filters)."""
    total = 0
    try:
        handle, files = archive_files(archive)
        with handle:
            for name, size, opener in files:
                name = os.path.normpath(name)
                if name.startswith(("/", "..")):
                    continue
                total += size
                if total > limit:
                    raise Problem(STATUS_MISSING, f"the archive unpacks to more than {limit >> 20} MiB")
                os.makedirs(os.path.join(dest, os.path.dirname(name)), exist_ok=True)
                with opener() as fin, open(os.path.join(dest, name), "wb") as fout:
                    shutil.copyfileobj(fin, fout)
    except (tarfile.TarError, zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
        raise Problem(STATUS_MISSING, f"the archive {os.path.basename(archive)} cannot be unpacked: {e}")


def collect(src, dest, wanted, work, optional=()):
    """Copies the lab's student files, and nothing else, from a folder or an
    archive into dest; the shallowest copy of each wins. One of optional
    may be missing (the build puts the skeleton's stub in its place)."""
    if os.path.islink(src):
        raise Problem(STATUS_REJECTED, "the submission is a symbolic link: not graded")
    if os.path.isdir(src):
        inside = [os.path.join(src, n) for n in os.listdir(src)]
        archives = [p for p in inside if p.endswith(ARCHIVES) and os.path.isfile(p) and not os.path.islink(p)]
        if len(archives) == 1 and not any(os.path.basename(p) in wanted for p in inside):
            src = archives[0]
    if os.path.isfile(src):
        unpacked = os.path.join(work, "unpacked")
        os.makedirs(unpacked)
        unpack(src, unpacked)
        src = unpacked
    missing = []
    for name in wanted:
        found = []
        for root, dirs, files in os.walk(src):
            dirs[:] = [d for d in dirs if not d.startswith(("__MACOSX", "."))]
            if name in files:
                p = os.path.join(root, name)
                if os.path.isfile(p) and not os.path.islink(p):
                    found.append((p.count(os.sep), p))
        if not found:
            if name not in optional:
                missing.append(name)
            continue
        p = sorted(found)[0][1]
        if os.path.getsize(p) > MAX_FILE:
            raise Problem(STATUS_MISSING, f"{name} is larger than {MAX_FILE >> 10} KiB: is it really the source file?")
        shutil.copyfile(p, os.path.join(dest, name))
    if missing:
        raise Problem(STATUS_MISSING, f"the submission lacks {', '.join(missing)} (the lab's files are: "
                      f"{', '.join(wanted)}; a folder with them, or one .zip/.tar.gz of them)")


def class_folder(path, dest, tool):
    """The class folder of SUBMISSIONS: a folder as it is, or a whole-class
    archive (Canvas's submissions.zip as downloaded, a .tar.gz of the
    folders) unpacked into dest, which is emptied first; a single folder
    at the archive's top is descended into."""
    if os.path.isdir(path):
        return path
    if not (os.path.isfile(path) and path.endswith(ARCHIVES)):
        raise SystemExit(f"{tool}: {path} is neither a folder nor an archive of the class's submissions "
                         f"({', '.join(ARCHIVES)}): give the folder, or the LMS's download as it came")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    try:
        unpack(path, dest, MAX_CLASS)
    except Problem as p:
        raise SystemExit(f"{tool}: {p.message}")
    names = [n for n in os.listdir(dest) if not n.startswith((".", "__MACOSX"))]
    if len(names) == 1 and os.path.isdir(os.path.join(dest, names[0])):
        return os.path.join(dest, names[0])
    return dest
