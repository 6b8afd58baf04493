"""What compiled objects define, call and run at start-up, read with
pyelftools (Debian's python3-pyelftools) from their symbol tables and
relocations.

A call shows in a relocatable object as a relocation inside the calling
function's bytes (a call, or an address taken) naming the callee; the kit
compiles student code with -ffunction-sections -fdata-sections, so that even
a call between two static functions of one file is a relocation (within one
section the assembler would resolve it and leave no trace)."""
import re
import sys

try:
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile
except ImportError:  # a python3 that is not Debian's (pyenv, conda) does not look in Debian's folder
    sys.path.append("/usr/lib/python3/dist-packages")
    try:
        from elftools.common.exceptions import ELFError
        from elftools.elf.elffile import ELFFile
    except ImportError:
        sys.exit("grading: pyelftools is missing (Debian: apt-get install python3-pyelftools, or make deps; "
                 "elsewhere: its Debian package unpacked, with its dist-packages folder on PYTHONPATH)")

# x86-64 relocations relative to the place (call, lea, mov through the GOT):
# a section symbol's addend then points 4 bytes before the target.
X86_64_PC_RELATIVE = {2, 4, 9, 24, 41, 42}
GLOBAL_BINDS = {"STB_GLOBAL", "STB_WEAK", "STB_GNU_UNIQUE", "STB_LOOS"}
IFUNC_TYPES = {"STT_GNU_IFUNC", "STT_LOOS"}
UNIQUE_BINDS = {"STB_GNU_UNIQUE", "STB_LOOS"}
# The one constructor nvcc writes into every .cu object: it registers the
# file's kernels with the CUDA runtime. Exempted by this exact name only.
NVCC_CONSTRUCTOR = "_ZL24__sti____cudaRegisterAllv"
# clang's OpenMP offloading registers what the code requires of the device
# runtime before main: a function of a few bytes that calls the runtime.
OFFLOAD_CONSTRUCTOR = ".omp_offloading.requires_reg"
OFFLOAD_RUNTIME_CALL = "__tgt_register_requires"
STARTUP_SECTIONS = re.compile(r"\.(fini_array|preinit_array|ctors|dtors|init|fini)(\..*)?")
INIT_ARRAY = re.compile(r"\.init_array(\..*)?")


class ObjectFile:
    """One ELF file's sections, symbols and relocations, read whole."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                elf = ELFFile(f)
                self.x86_64 = elf["e_machine"] == "EM_X86_64"
                self.sections = [{"name": s.name, "size": s["sh_size"], "alloc": bool(s["sh_flags"] & 2)}
                                 for s in elf.iter_sections()]
                self.symbols, self.dynamic, self.relocations = [], [], []
                for s in elf.iter_sections():
                    if s["sh_type"] in ("SHT_SYMTAB", "SHT_DYNSYM"):
                        syms = [{"name": y.name, "value": y["st_value"], "size": y["st_size"],
                                 "type": y["st_info"]["type"], "bind": y["st_info"]["bind"],
                                 "shndx": y["st_shndx"]} for y in s.iter_symbols()]
                        if s["sh_type"] == "SHT_SYMTAB":
                            self.symbols = syms
                        else:
                            self.dynamic = syms
                for s in elf.iter_sections():
                    if s["sh_type"] in ("SHT_RELA", "SHT_REL") and s["sh_link"] and \
                            elf.get_section(s["sh_link"])["sh_type"] == "SHT_SYMTAB":
                        for r in s.iter_relocations():
                            self.relocations.append((s["sh_info"], r["r_offset"], r["r_info_sym"], r["r_info_type"],
                                                     r["r_addend"] if s.is_RELA() else 0))
        except (ELFError, OSError, ValueError, KeyError) as e:
            raise ValueError(f"{path}: not a readable ELF object ({e})")

    def section_name(self, index):
        return self.sections[index]["name"] if isinstance(index, int) and index < len(self.sections) else str(index)

    def defined(self, dynamic=False):
        """The global symbols this file defines."""
        return {y["name"] for y in (self.dynamic if dynamic else self.symbols)
                if y["name"] and y["bind"] in GLOBAL_BINDS and y["shndx"] != "SHN_UNDEF"}

    def referenced(self):
        """The global and weak names this file defines or uses: a program's
        undefined weak ones too (__gmon_start__, which the C runtime calls
        before main when something defines it)."""
        return {y["name"] for y in self.symbols if y["name"] and y["bind"] in GLOBAL_BINDS}

    def functions(self):
        """The global functions this object defines."""
        return {y["name"] for y in self.symbols if y["type"] == "STT_FUNC" and y["bind"] in GLOBAL_BINDS
                and y["shndx"] != "SHN_UNDEF"}

    def symbol_at(self, shndx, offset):
        """The function or object whose bytes hold offset in section shndx."""
        best = None
        for i, y in enumerate(self.symbols):
            if y["shndx"] == shndx and y["type"] in ("STT_FUNC", "STT_OBJECT") and y["name"] and \
                    (y["value"] <= offset < y["value"] + y["size"] or (y["size"] == 0 and y["value"] == offset)):
                if best is None or self.symbols[best]["bind"] not in GLOBAL_BINDS:
                    best = i
        return best

    def target(self, reloc):
        """(symbol index, or None and (section, offset)) of what a relocation names."""
        _, _, sym, rtype, addend = reloc
        y = self.symbols[sym]
        if y["type"] != "STT_SECTION":
            return sym, None
        offset = addend + (4 if self.x86_64 and rtype in X86_64_PC_RELATIVE else 0)
        hit = self.symbol_at(y["shndx"], offset)
        return (hit, None) if hit is not None else (None, (y["shndx"], offset))


def startup_code(obj, from_cu):
    """What in one object would run before or after main, in the test
    runner's own process: constructor and destructor sections and entries.
    Exempt are only the compilers' registration constructors, each as the
    one constructor of its object: nvcc's, by its exact name, in an object
    compiled from a .cu file; clang's OpenMP offloading one
    (offload_registration)."""
    found = []
    for s in obj.sections:
        if STARTUP_SECTIONS.fullmatch(s["name"]):
            found.append(f"a {s['name']} section")
    arrays = {i for i, s in enumerate(obj.sections) if INIT_ARRAY.fullmatch(s["name"])}
    entries = [r for r in obj.relocations if r[0] in arrays]
    for i in arrays:
        relocated = sum(1 for r in entries if r[0] == i)
        if obj.sections[i]["size"] != 8 * relocated:
            found.append(f"a {obj.sections[i]['name']} section with entries of its own")
    for r in entries:
        sym, place = obj.target(r)
        name = obj.symbols[sym]["name"] if sym is not None else f"{obj.section_name(place[0])}+{place[1]}"
        if len(entries) == 1 and ((from_cu and name == NVCC_CONSTRUCTOR) or offload_registration(obj, sym)):
            continue
        found.append(f"a constructor ({name})")
    return found


def offload_registration(obj, sym):
    """Is symbol sym clang's OpenMP offloading registration: its exact name,
    in an object that holds a device image (.llvm.offloading), a local
    function of at most 16 bytes whose only call is the offload runtime's?
    (No C name holds a dot, but an asm label can: the size and the call
    leave such a function nothing else to do.)"""
    if sym is None or not any(s["name"] == ".llvm.offloading" for s in obj.sections):
        return False
    y = obj.symbols[sym]
    if y["name"] != OFFLOAD_CONSTRUCTOR or y["type"] != "STT_FUNC" or y["size"] > 16 or y["bind"] in GLOBAL_BINDS:
        return False
    calls = [obj.symbols[r[2]]["name"] for r in obj.relocations
             if r[0] == y["shndx"] and y["value"] <= r[1] < y["value"] + y["size"]]
    return calls == [OFFLOAD_RUNTIME_CALL]


def unsafe_symbols(obj, forbidden):
    """Global symbols an object may not define: IFUNC resolvers and unique
    globals (code or data chosen when the program loads), and any symbol in
    forbidden (the C library's or the grader's: defining one would replace
    it in the test runner)."""
    bad = []
    for y in obj.symbols:
        if not y["name"] or y["shndx"] == "SHN_UNDEF" or y["bind"] not in GLOBAL_BINDS:
            continue
        if y["type"] in IFUNC_TYPES or y["bind"] in UNIQUE_BINDS or y["name"] in forbidden:
            bad.append(y["name"])
    return bad


class CallGraph:
    """Who refers to whom across a submission's objects. Nodes: the
    functions and data objects the objects define (a global one by its name,
    across objects) and, for bytes outside any symbol, the section; edges:
    the relocations inside a node's bytes. A name no object defines is an
    external symbol: a call into the kit or a library."""

    def __init__(self, paths):
        self.objects = [ObjectFile(p) for p in paths]
        self.globals = set().union(*(o.defined() for o in self.objects)) if self.objects else set()
        self.edges = {}
        for k, o in enumerate(self.objects):
            for r in o.relocations:
                if r[0] >= len(o.sections) or not o.sections[r[0]]["alloc"]:
                    continue  # debug information
                source = self._node(k, o.symbol_at(r[0], r[1]), (r[0], r[1]))
                sym, place = o.target(r)
                y = o.symbols[sym] if sym is not None else None
                if y is not None and y["shndx"] == "SHN_UNDEF":
                    dest = ("g", y["name"]) if y["name"] in self.globals else ("x", y["name"])
                else:
                    dest = self._node(k, sym, place)
                if dest != source:
                    self.edges.setdefault(source, set()).add(dest)

    def _node(self, k, sym, place):
        o = self.objects[k]
        if sym is None:
            return ("s", k, place[0])
        y = o.symbols[sym]
        return ("g", y["name"]) if y["bind"] in GLOBAL_BINDS else ("l", k, sym)

    def name(self, node):
        if node[0] in ("g", "x"):
            return node[1]
        o = self.objects[node[1]]
        return o.symbols[node[2]]["name"] if node[0] == "l" else o.section_name(node[2])

    def referenced(self):
        """The global and weak names this file defines or uses: a program's
        undefined weak ones too (__gmon_start__, which the C runtime calls
        before main when something defines it)."""
        return {y["name"] for y in self.symbols if y["name"] and y["bind"] in GLOBAL_BINDS}

    def functions(self):
        return sorted(set().union(*(o.functions() for o in self.objects))) if self.objects else []

    def external_calls(self, function):
        """{external symbol: [the submission's functions on the way]} for
        every external symbol function reaches, directly or through the
        submission's own code (breadth first: the shortest way)."""
        start = ("g", function)
        way, queue, found = {start: []}, [start], {}
        while queue:
            node = queue.pop(0)
            for nxt in sorted(self.edges.get(node, ()), key=str):
                if nxt in way:
                    continue
                way[nxt] = way[node] + ([self.name(nxt)] if nxt[0] != "x" else [])
                if nxt[0] == "x":
                    found[nxt[1]] = way[node]
                else:
                    queue.append(nxt)
        return found
