#!/usr/bin/env bash
# Self-test (run by make test): every .cu of the GPU labs and of the kit
# (the files cuda_archs.sh compiles) compiles with a CUDA 12 toolkit too,
# for sm_70 (which CUDA 13 no longer builds for) and each architecture of
# the course's list that the toolkit knows: clusters still run CUDA 12,
# and their compute capability 7.0 GPUs need it.
#
# The toolkit: CUDA12_HOME, else build/cuda12/toolkit, else the newest
# /usr/local/cuda-12*. PyPI has no CUDA 12 nvcc (nvidia-cuda-nvcc-cu12
# carries ptxas, libnvvm and the crt headers, but not nvcc, cicc or
# cudafe++; NVRTC, which PyPI has, refuses host code), so without one of
# these the suite fails, saying so. The library headers the toolkit lacks
# (NCCL's, which no CUDA toolkit carries; cuBLAS's or cuFFT's where only
# the compiler is installed) come from PyPI's CUDA 12 wheels
# (cuda12_wheels.txt: versions and hashes pinned), fetched with pip into
# build/cuda12/ once: their headers are kept, the wheels are not, and a
# later run downloads nothing. Where the download fails (no network, no
# pip: Debian's python3-pip), the suite fails with pip's reason.
#
# nvcc's host compiler: CUDA12_CCBIN, else gcc-12 where there is one (every
# CUDA 12 release takes GCC 12; the GPU hosts' default GCC 13 only from
# 12.4), else gcc. CUDA_ARCHS_JOBS files at once (default 2).
set -u
cd "$(dirname "$0")/../.." || exit 2
. maintainer/selftest/lib.sh
suite_start cuda12_archs
CACHE=$(pwd)/build/cuda12

home=
for c in "${CUDA12_HOME:-}" "$CACHE/toolkit" $(find /usr/local -maxdepth 1 -name "cuda-12*" 2>/dev/null | sort -rV); do
    if [ -z "$c" ] || [ ! -x "$c/bin/nvcc" ]; then continue; fi
    if "$c/bin/nvcc" --version 2>/dev/null | grep -q 'release 12\.'; then home=$c; break; fi
    if [ "$c" = "${CUDA12_HOME:-}" ]; then
        fail "cuda12_archs: CUDA12_HOME=$c holds no CUDA 12 nvcc ($("$c/bin/nvcc" --version 2>&1 | sed -n 's/.*\(release [0-9.]*\).*/\1/p'))"
        exit 1
    fi
done
# Skipped, and said why, where no CUDA 12 nvcc is to be had: PyPI's CUDA 12
# wheels carry ptxas but no nvcc, and CI's root reaches only Debian's
# registry and PyPI. Given one (CUDA12_HOME), the suite compiles and fails.
if [ -z "$home" ]; then
    skip "cuda12_archs: no CUDA 12 toolkit here (CUDA12_HOME, build/cuda12/toolkit, /usr/local/cuda-12*), so nothing was compiled for sm_70: PyPI has no CUDA 12 nvcc (nvidia-cuda-nvcc-cu12 carries ptxas, not nvcc); install NVIDIA's CUDA 12 compiler (cuda_nvcc and cuda_cudart, e.g. the cuda-nvcc-12-9 and cuda-cudart-dev-12-9 packages of NVIDIA's Debian 12 repository) and give CUDA12_HOME"
    exit 0
fi
nvcc=$home/bin/nvcc
version=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')

# The headers the toolkit lacks, from PyPI.
need=() specs=()
while read -r header spec hash _; do
    case $header in '#'* | '') continue ;; esac
    [ -e "$home/include/$header" ] && continue
    specs+=("$spec")
    [ -e "$CACHE/include/.${spec}" ] || need+=("$spec $hash")
done <maintainer/selftest/cuda12_wheels.txt
if [ ${#need[@]} -gt 0 ]; then
    t0=$(date +%s)
    rm -rf "$CACHE/wheels" "$CACHE/unpack"
    mkdir -p "$CACHE/wheels" "$CACHE/include"
    printf '%s\n' "${need[@]}" >"$CACHE/wheels/requirements.txt"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        fail "cuda12_archs: the headers CUDA $version lacks (${need[*]%% *}) come from PyPI, but python3 has no pip here (Debian: python3-pip)"
        exit 1
    fi
    # --no-cache-dir: pip's own cache would hold a second copy of the wheels.
    if ! python3 -m pip download --disable-pip-version-check --no-cache-dir --no-deps --only-binary=:all: \
        --require-hashes -r "$CACHE/wheels/requirements.txt" -d "$CACHE/wheels" >"$OUT/pip.log" 2>&1; then
        fail "cuda12_archs: could not download the headers CUDA $version lacks from PyPI (${need[*]%% *}): $(grep -m 1 -E 'ERROR|error' "$OUT/pip.log" || tail -n 1 "$OUT/pip.log") (see $OUT/pip.log)"
        exit 1
    fi
    bytes=$(cat "$CACHE"/wheels/*.whl | wc -c)
    for w in "$CACHE"/wheels/*.whl; do
        unzip -q -o "$w" 'nvidia/*/include/*' -d "$CACHE/unpack"
    done
    find "$CACHE/unpack" -name __init__.py -delete
    for d in "$CACHE"/unpack/nvidia/*/include; do cp -r "$d/." "$CACHE/include/"; done
    for n in "${need[@]}"; do touch "$CACHE/include/.${n%% *}"; done
    rm -rf "$CACHE/wheels" "$CACHE/unpack"
    pass "cuda12_archs: the headers CUDA $version lacks, from PyPI: ${need[*]%% *} ($((bytes / 1000000)) MB in $(($(date +%s) - t0)) s; kept in $CACHE/include)"
elif [ ${#specs[@]} -gt 0 ]; then
    pass "cuda12_archs: the headers CUDA $version lacks, from PyPI earlier: ${specs[*]} (in $CACHE/include)"
fi

# sm_70 and the course's list, less what this toolkit does not build for.
known=$("$nvcc" --list-gpu-arch 2>/dev/null | tr '\n' ' ')
archs=() unknown=()
for a in ${CUDA12_ARCHS:-sm_70 $(course_gpu_archs)}; do
    [[ " ${archs[*]} " == *" $a "* ]] && continue
    if [ -n "$known" ] && [[ " $known " != *" compute_${a#sm_} "* ]]; then unknown+=("$a"); continue; fi
    archs+=("$a")
done
[ ${#unknown[@]} -gt 0 ] && echo "        CUDA $version does not build for ${unknown[*]}: left to cuda_archs.sh"

ccbin=${CUDA12_CCBIN:-$(command -v gcc-12 || echo gcc)}
# The toolkit's own headers first (-isystem comes after nvcc's include
# folder); sm_70's deprecation warning, once per file, says nothing new.
export CU_EXTRA_FLAGS="-ccbin $ccbin -isystem $CACHE/include -Wno-deprecated-gpu-targets"
jobs=${CUDA_ARCHS_JOBS:-2}
[ "$jobs" -gt "$(nproc)" ] && jobs=$(nproc)
cu_arch_matrix "CUDA $version" "$nvcc" "$OUT" "$jobs" "${archs[@]}"
