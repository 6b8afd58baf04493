"""The key of a submission's chaos seeds (autograder/runner/runner.h,
AG_CHAOS_KEY): a function of the files and of a secret the grading folder
keeps, OUT/chaos.key, made on the first grading; with --prepared DIR, DIR's
(made by --prepare: Gradescope grades every run into a fresh OUT, from one
prepared image, so its regrades draw the same seeds too).

The files' digest alone makes a regrade draw the same seeds, so a racy
submission gets the same grade each time; but the kit is public, so from it
alone a student could work the seeds out at home and reshape their files
until the seeds their digest picks happen to pass. The secret, never in the
student copy, takes that away and keeps the first property: the same
grading folder, the same seeds."""
import hashlib
import os
import secrets
import tempfile

KEY_FILE = "chaos.key"


def term_secret(out):
    """OUT/chaos.key's text, made (32 random hex digits, readable by its
    owner only) where it is missing. Made whole before it appears (a link of
    a finished file), since Slurm's tasks of one grading may start at once."""
    path = os.path.join(out, KEY_FILE)
    if not os.path.exists(path):
        fd, tmp = tempfile.mkstemp(prefix=".chaos.key.", dir=out)  # mode 0600
        try:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(16) + "\n")
            os.link(tmp, path)
        except FileExistsError:
            pass  # another task made it first: theirs is the one
        finally:
            os.unlink(tmp)
    with open(path) as f:
        text = f.read().strip()
    if not text:
        raise SystemExit(f"grade: {path} is empty: delete it to make a new one (the next grades draw new chaos seeds)")
    return text


def chaos_key(secret, files_digest):
    """The AG_CHAOS_KEY of a submission whose files have files_digest, under
    the grading folder's secret (term_secret)."""
    return hashlib.sha256(f"{secret}:{files_digest}".encode()).hexdigest()[:16]
