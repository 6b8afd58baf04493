#!/usr/bin/env python3
"""The one-page HTML of a lab's demo, for the projector (make demo LAB=N):

    page.py OUT.html --title TEXT --picture FILE.png --figures FILE
            --host TEXT --gpu TEXT --code TEXT --seconds S

The picture (a file beside OUT.html), the figures the demo printed (one a
line: what the lecturer reads aloud), whose code ran and on which host. Large
type and one column: it is read from the back of a lecture hall. Every
text is escaped; the page needs nothing but itself and its picture.
"""
import argparse
import datetime
import html
import os
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    for name in ("title", "picture", "figures", "host", "gpu", "code", "seconds"):
        p.add_argument("--" + name, required=True)
    a = p.parse_args()
    pic = os.path.join(os.path.dirname(a.out) or ".", a.picture)
    if not os.path.isfile(pic) or os.path.getsize(pic) == 0:
        sys.exit(f"page.py: the picture {pic} is missing or empty")
    try:
        with open(a.figures, encoding="utf-8") as f:
            figures = [line.rstrip("\n") for line in f if line.strip()]
    except OSError as e:
        sys.exit(f"page.py: {e}")
    e = html.escape
    items = "\n".join(f"<li>{e(line)}</li>" for line in figures)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{e(a.title)}</title>
<style>
  body {{ font-family: sans-serif; font-size: 26px; margin: 1em auto; max-width: 1800px; color: #111; background: #fff; }}
  h1 {{ font-size: 44px; margin: 0 0 0.3em 0; }}
  img {{ width: 100%; border: 1px solid #ccc; }}
  ul {{ line-height: 1.4; }}
  .code {{ font-weight: bold; }}
  .host {{ color: #444; font-size: 22px; }}
</style></head>
<body>
<h1>{e(a.title)}</h1>
<img src="{e(a.picture)}" alt="{e(a.title)}">
<ul>
{items}
</ul>
<p class="code">Code that ran: {e(a.code)}</p>
<p class="host">Host: {e(a.host)}; GPU: {e(a.gpu)}. Demo run time {e(a.seconds)} s, {when}.</p>
</body></html>
"""
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(page)


if __name__ == "__main__":
    main()
