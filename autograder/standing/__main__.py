"""python3 -m standing (PYTHONPATH=autograder; the Makefile's standing,
history and nickname rules, autograder/sched/record_run's record):
  standing LAB | history LAB | nickname NAME | record LAB BUILD KIT_BUILD RESULTS | file RECORD.json"""
import os
import re
import sys

from . import board, course, record

NO_SPOOL = ("the course has set no spool for the class standing (STANDING_SPOOL in course.conf): "
            "there is nothing to show")


def main(argv):
    if len(argv) < 2 or argv[0] not in ("standing", "history", "nickname", "record", "file"):
        sys.exit(__doc__.strip())
    what, args = argv[0], argv[1:]
    if what in ("record", "file"):
        (record.main if what == "record" else record.file)(args)
        return
    if what == "nickname":
        name = args[0]
        if not re.fullmatch(r"[A-Za-z0-9_.-]{2,20}", name):
            sys.exit(f"make nickname: '{name}': 2 to 20 letters, digits, '.', '_' or '-'")
        with open(course.NICKNAME_FILE, "w") as f:
            f.write(name + "\n")
        print(f"the board will show your next recorded runs as '{name}' ({os.path.relpath(course.NICKNAME_FILE, course.KIT)})")
        if not course.spool():
            # the name is kept for a course that sets a spool later
            print("note: this course records no runs (no STANDING_SPOOL in course.conf): there is no board to show it yet")
        return
    lab = args[0]
    if not lab.isdigit():
        sys.exit(f"make {what}: no lab named (LAB=N)")
    labs = sorted(int(d[3:].split("-")[0]) for d in os.listdir(os.path.join(course.KIT, "labs"))
                  if re.fullmatch(r"lab[0-9]+-.+", d))
    if int(lab) not in labs:
        sys.exit(f"make {what}: there is no lab {lab} (labs: {' '.join(map(str, labs))})")
    text = (board.standing if what == "standing" else board.history)(int(lab))
    if text is None:
        sys.exit(f"make {what}: {NO_SPOOL}")
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
