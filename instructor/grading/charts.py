"""The kit's bar charts as PNG files: gnuplot where it is installed (Debian's
gnuplot-nox, make deps), else matplotlib (the GPU hosts have no gnuplot but
a Python with matplotlib). Used by the class's histogram and its page."""
import os
import shutil
import subprocess


def bars_png(path, centres, heights, width, title, xlabel, ylabel, marks=(), xrange=None):
    """Bars of the given heights at the given x centres, each `width` wide;
    marks: (label, x) vertical lines (the reference, a bound). Returns None
    when drawn, else why not (for the page or the log)."""
    tmp = path + ".tmp"
    if shutil.which("gnuplot"):
        data = path + ".dat"
        with open(data, "w") as f:
            f.writelines(f"{x:g} {h:g}\n" for x, h in zip(centres, heights))
        lines = "".join(f"set arrow from {x:g}, graph 0 to {x:g}, graph 1 nohead front lw 2 lc rgb '#40a040'\n"
                        f"set label '{label}' at {x:g}, graph {0.95 - 0.07 * i:g} offset 0.5,0 tc rgb '#40a040' front "
                        "noenhanced\n" for i, (label, x) in enumerate(marks))
        script = (f"set terminal png size 800,450\nset output '{tmp}'\nset title '{title}' noenhanced\n"
                  f"set xlabel '{xlabel}' noenhanced\nset ylabel '{ylabel}'\nset style fill solid 0.6\n"
                  f"set boxwidth {width:g}\nset yrange [0:*]\nunset key\n{lines}"
                  + (f"set xrange [{xrange[0]:g}:{xrange[1]:g}]\n" if xrange else "")
                  + f"plot '{data}' using 1:2 with boxes lc rgb '#3070c0'\n")
        done = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
        os.remove(data)
        if done.returncode != 0:
            return f"gnuplot failed: {done.stderr.strip()[:200]}"
    else:
        try:
            import matplotlib
            matplotlib.use("Agg")
            from matplotlib import pyplot
        except ImportError:
            return "neither gnuplot nor matplotlib is installed here"
        fig, ax = pyplot.subplots(figsize=(8, 4.5))
        ax.bar(list(centres), list(heights), width=width, color="#3070c0", alpha=0.8)
        for i, (label, x) in enumerate(marks):
            ax.axvline(x, color="#40a040", linewidth=2)
            ax.annotate(label, (x, 0.95 - 0.07 * i), xycoords=("data", "axes fraction"), color="#40a040")
        if xrange:
            ax.set_xlim(*xrange)
        ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
        fig.savefig(tmp, format="png")
        pyplot.close(fig)
    os.replace(tmp, path)
    return None
