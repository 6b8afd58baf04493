#!/bin/sh
# The Debian packages a GPU host without a package registry lacks, staged
# from a machine that has apt:
#   Check and its subunit helper (the tests), json-c (results.json),
#   bubblewrap (the grading sandbox), python3-pyelftools (the grader's ELF
#   reading), GCC 12's OpenMP runtime with its NVIDIA offload plugin
#   (lab 4's offload stage, for programs built with gcc-12-offload-nvptx:
#   the GPU host's own libgomp has no plugin), and clang-16 with LLVM's
#   offload runtime (lab 4's offload stage with the kit's default compiler:
#   clang itself, clang-offload-packager and clang-linker-wrapper from
#   clang-tools-16, libllvm16 and libclang-cpp16 with libz3, the one library
#   of theirs an Ubuntu host lacks, libomp5-16's runtime and CUDA plugin, and
#   libomp-16-dev's sm_90 device library and unversioned names).
#
#   here:   make gpu-deps-fetch              (= autograder/gpu-host/deps.sh fetch .gpudeps)
#           make gpu-deps-fetch GPU_DEPS=demos  (the demos' set, with gnuplot: .gpudeps-demos)
#   there:  eval "$(autograder/gpu-host/deps.sh unpack .gpudeps)"
#           (autograder/gpu-host/run does it for you)
#
# 'unpack' extracts the packages into DIR/root (the libgomp ones into
# DIR/gomp, kept apart: they must not shadow the host's libgomp) and prints
# the exports that make gcc, nvcc, pkg-config, python3 and the shell find
# them: CPATH, LIBRARY_PATH, PKG_CONFIG_PATH, LD_LIBRARY_PATH (with LLVM's
# runtime folder and DIR/libcuda: LLVM's CUDA plugin opens the driver by its
# unversioned name libcuda.so, which a host with the driver alone lacks),
# PATH, PYTHONPATH, KIT_STAGED_ROOT (the grading sandbox binds it and puts
# its bin first on PATH, as here), and GOMP_OFFLOAD_LIB (the folder to put first on
# LD_LIBRARY_PATH for GCC-built offload programs only). It can be run again.
set -eu
usage() { echo "usage: deps.sh fetch DIR [tests|demos] | unpack DIR" >&2; exit 2; }
[ $# = 2 ] || { [ $# = 3 ] && [ "$1" = fetch ]; } || usage
cmd=$1 dir=$2 set=${3:-tests}
base="check libsubunit0 libsubunit-dev libjson-c5 libjson-c-dev bubblewrap python3-pyelftools"
# The demos' set (make demo draws with gnuplot, which GPU hosts lack)
# leaves out the offload compilers: with them the folder would pass the 64
# MiB a device call carries, and lab 4's demo times the NCCL stage, not the
# offload one (lab 4 builds its offload stage for the host without them).
# gnuplot-nox's libraries go into DIR/gnuplot, apart, behind a wrapper that
# alone puts them on LD_LIBRARY_PATH: the host's programs keep the host's
# libraries. The C and C++ runtimes and the larger font families stay the
# host's or are left out (DejaVu is what the pictures use).
gnuplot_closure() {
    apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
        --no-enhances --no-pre-depends gnuplot-nox | grep '^[a-z]' | sort -u |
        grep -vxE 'libc6|libgcc-s1|libstdc\+\+6|gcc-12-base|debconf|cdebconf|dpkg|tar|install-info|lsb-base|sysvinit-utils|libdebian-installer4|libnewt0.52|libslang2|libtextwrap1|gnuplot-data|fonts-(croscore|freefont-otf|freefont-ttf|liberation|liberation2|texgyre|urw-base35)|ttf-bitstream-vera|xfonts-.*|x11-common|readline-common|libfontenc1'
}
case $set in
tests) pkgs="$base libgomp1 libgomp-plugin-nvptx1
      clang-16 clang-tools-16 libclang-common-16-dev libclang-cpp16 libllvm16 libz3-4 libomp5-16 libomp-16-dev" ;;
demos) pkgs=$base ;;
*) usage ;;
esac
case $cmd in
fetch)
    command -v apt-get >/dev/null || { echo "error: 'fetch' needs apt-get (a Debian machine)" >&2; exit 2; }
    mkdir -p "$dir"
    rm -f "$dir"/*.deb
    log=$(mktemp)
    # shellcheck disable=SC2086 # pkgs is a list of names
    if ! (cd "$dir" && apt-get download $pkgs) >/dev/null 2>"$log"; then
        cat "$log" >&2
        rm -f "$log"
        exit 1
    fi
    if [ "$set" = demos ]; then
        mkdir -p "$dir/gnuplot-debs"
        rm -f "$dir"/gnuplot-debs/*.deb
        # shellcheck disable=SC2046 # a list of package names
        (cd "$dir/gnuplot-debs" && apt-get download $(gnuplot_closure)) >/dev/null 2>"$log" || { cat "$log" >&2; rm -f "$log"; exit 1; }
    fi
    rm -f "$log"
    echo "fetched into $dir:" >&2
    ls "$dir"/*.deb >&2 ;;
unpack)
    [ -d "$dir" ] || { echo "error: no $dir here: run 'make gpu-deps-fetch' on a machine with apt, and bring $dir along" >&2; exit 2; }
    top=$(cd "$dir" && pwd)
    root=$top/root gomp=$top/gomp cuda=$top/libcuda
    rm -rf "$root" "$gomp" "$cuda" # from scratch: the paths in the .pc files are this host's
    mkdir -p "$root" "$gomp" "$cuda"
    found=0
    for deb in "$top"/*.deb; do
        [ -e "$deb" ] || continue
        found=$((found + 1))
        case $(basename "$deb") in
        libgomp*) dpkg-deb -x "$deb" "$gomp" ;;
        *) dpkg-deb -x "$deb" "$root" ;;
        esac
    done
    [ "$found" -gt 0 ] || { echo "error: no .deb in $dir: run 'make gpu-deps-fetch' first" >&2; exit 2; }
    rm -rf "${top:?}/gnuplot" "${top:?}/bin"
    if [ -d "$top/gnuplot-debs" ]; then
        mkdir -p "$top/gnuplot" "$top/bin"
        for deb in "$top"/gnuplot-debs/*.deb; do dpkg-deb -x "$deb" "$top/gnuplot"; done
        g=$top/gnuplot
        printf '<?xml version="1.0"?>\n<fontconfig><dir>%s/usr/share/fonts</dir><cachedir>%s/fontcache</cachedir></fontconfig>\n' "$g" "$g" >"$g/fonts.conf"
        cat >"$top/bin/gnuplot" <<WRAP
#!/bin/sh
# Debian's gnuplot with its own libraries (deps.sh unpack wrote this).
LD_LIBRARY_PATH=$g/usr/lib/x86_64-linux-gnu:$g/lib/x86_64-linux-gnu FONTCONFIG_FILE=$g/fonts.conf GNUPLOT_LIB=$g/usr/share/gnuplot5 exec $g/usr/bin/gnuplot-nox "\$@"
WRAP
        chmod +x "$top/bin/gnuplot"
    fi
    lib=$root/usr/lib/x86_64-linux-gnu
    for pc in "$lib"/pkgconfig/*.pc; do
        [ -e "$pc" ] && sed -i "s|^prefix=.*|prefix=$root/usr|" "$pc"
    done
    driver=$(/sbin/ldconfig -p 2>/dev/null | awk '$1 == "libcuda.so.1" { print $NF; exit }')
    [ -n "$driver" ] && ln -sf "$driver" "$cuda/libcuda.so"
    echo "export CPATH=$root/usr/include\${CPATH:+:\$CPATH}"
    echo "export LIBRARY_PATH=$lib\${LIBRARY_PATH:+:\$LIBRARY_PATH}"
    echo "export PKG_CONFIG_PATH=$lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
    echo "export LD_LIBRARY_PATH=$lib:$root/usr/lib/llvm-16/lib:$cuda\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
    echo "export PATH=$top/bin:$root/usr/bin\${PATH:+:\$PATH}"
    echo "export KIT_STAGED_ROOT=$root"
    echo "export PYTHONPATH=$root/usr/lib/python3/dist-packages\${PYTHONPATH:+:\$PYTHONPATH}"
    echo "export GOMP_OFFLOAD_LIB=$gomp/usr/lib/x86_64-linux-gnu" ;;
*) usage ;;
esac
