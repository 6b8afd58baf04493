"""The course's settings (course.conf at the kit's root, set once by the
instructor and carried by the student copy; KIT_COURSE names another file,
as the self-test does), who runs this (KIT_STUDENT_ID, else the login: the id
grading knows the student by) and the nickname they chose."""
import getpass
import os

KIT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# (KIT_IMAGE: the course's image, autograder/sched/in_image's; GPU_ARCHS:
# the build's, common/mk/cuda_arch.mk reads it, empty there is its default)
DEFAULTS = {"STANDING_SPOOL": "", "STANDING_TOP": "10", "STANDING_AHEAD": "3", "STANDING_SALT": "", "STANDING_SLOWER": "2",
            "KIT_IMAGE": "", "GPU_ARCHS": ""}


def conf_path():
    return os.environ.get("KIT_COURSE") or os.path.join(KIT, "course.conf")


def settings(path=None):
    """course.conf's KEY=value lines over the defaults; a missing file is
    the defaults (no spool); a line that is not KEY=value is an error."""
    path = path or conf_path()
    out = dict(DEFAULTS)
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return out
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, eq, value = line.partition("=")
        if not eq or key.strip() not in DEFAULTS:
            raise SystemExit(f"{path}:{n}: expected one of {', '.join(DEFAULTS)} as KEY=value, got '{line}'")
        out[key.strip()] = value.strip().strip("'\"")
    for key in ("STANDING_TOP", "STANDING_AHEAD"):
        if not out[key].isdigit():
            raise SystemExit(f"{path}: {key} must be a whole number, not '{out[key]}'")
    try:
        if not float(out["STANDING_SLOWER"]) > 1.0:
            raise ValueError
    except ValueError:
        raise SystemExit(f"{path}: STANDING_SLOWER must be a number above 1, not '{out['STANDING_SLOWER']}'") from None
    return out


def spool(conf=None):
    """The spool folder, or '' when the course set none."""
    return (conf or settings())["STANDING_SPOOL"]


def student_id():
    return os.environ.get("KIT_STUDENT_ID") or getpass.getuser()


# (the self-test's students, who share one kit, name their own file)
NICKNAME_FILE = os.environ.get("KIT_NICKNAME_FILE") or os.path.join(KIT, ".standing-nickname")


def nickname():
    """The name the student chose for the board (make nickname NAME=...), or ''."""
    try:
        with open(NICKNAME_FILE) as f:
            return f.read().strip()
    except OSError:
        return ""
