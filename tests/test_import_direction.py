"""The house reads in one direction: every import in the source, read with `ast` (nothing is imported here,
Django is never loaded), goes down the layers.

- `arena/` never imports Django, Celery, DRF or a platform app: the engine runs without the platform.
- No game (`arena/games/**`) imports anything of `arena` outside `arena.games` (the referee, sandbox, replays,
  CLI, generated gRPC code) nor gRPC itself: games are pure rules.
- The platform's apps import only apps listed above their own in the "Dependency order" section of
  `platform/README.md` (the one place the order is written; this test reads it), at the top of a module or
  inside a function alike, and no app graph has a cycle. Migrations are left out (Django writes them from the
  models, whose string references such as `ForeignKey("ladders.Ladder")` are checked like imports).
- Inside one part (the engine `arena/`, one platform app) no files import each other in a circle, function-level
  imports and `if TYPE_CHECKING` ones included: a module that needs one higher up takes it as an argument, sends
  a task by name or a signal, or the shared piece moves down (README "Dependency order").
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLATFORM = ROOT / "platform"
ARENA = ROOT / "arena"
README = PLATFORM / "README.md"

FRAMEWORKS = ("django", "rest_framework", "celery", "drf_spectacular", "kombu", "axes")
RELATION_FIELDS = {"ForeignKey", "OneToOneField", "ManyToManyField"}


@dataclass(frozen=True)
class Import:
    source: str   # the importing module, dotted
    target: str   # the imported module (or model label's app), dotted
    path: Path
    line: int
    text: str     # what the line says, for the failure message


# ---------------------------------------------------------------------------------------------- reading imports

def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path) -> Iterator[Import]:
    """Every import of the file, wherever it stands (module level, function, class, `if TYPE_CHECKING`), with
    relative imports resolved; plus the app labels of string model references (`ForeignKey("app.Model")`)."""
    source = module_name(path, root)
    package = source if path.name == "__init__.py" else source.rpartition(".")[0]
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text, filename=str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # `from pkg import mod` imports the module pkg.mod when there is one
            targets = [f"{prefix}.{a.name}" if _is_module(root, f"{prefix}.{a.name}") else prefix
                       for a in node.names]
        elif isinstance(node, ast.Call) and _callee(node) in RELATION_FIELDS:
            to = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "to"), None)
            if isinstance(to, ast.Constant) and isinstance(to.value, str) and "." in to.value:
                targets = [to.value.split(".")[0]]
        for target in dict.fromkeys(targets):
            yield Import(source, target, path, node.lineno, lines[node.lineno - 1].strip())


def where(imp: Import) -> str:
    """`path:line: `the import``, the path relative to the checkout when it is in it."""
    path = imp.path.relative_to(ROOT) if imp.path.is_relative_to(ROOT) else imp.path
    return f"{path}:{imp.line}: `{imp.text}`"


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _is_module(root: Path, dotted: str) -> bool:
    p = root.joinpath(*dotted.split("."))
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def python_files(root: Path, skip: Iterable[str] = ()) -> list[Path]:
    skipped = set(skip)
    return sorted(p for p in root.rglob("*.py") if not skipped & set(p.relative_to(root).parts))


# -------------------------------------------------------------------------------------------- the order, read

def dependency_order(readme: str) -> list[list[str]]:
    """The numbered lines of the README's "Dependency order" section, bottom first: each line's backticked
    names before its dash (an app, or a module of one placed apart from it, e.g. `arena_site.urls`)."""
    section = re.search(r"^## Dependency order\n(.*?)(?=^## |\Z)", readme, re.DOTALL | re.MULTILINE)
    assert section, "platform/README.md has no '## Dependency order' section"
    layers = []
    for line in section.group(1).splitlines():
        m = re.match(r"\d+\.\s+(.*?)\s+[—-]\s", line)
        if m:
            layers.append(re.findall(r"`([\w.]+)`", m.group(1)))
    assert layers, "the Dependency order section lists no apps"
    return layers


def layer_of(module: str, layers: list[list[str]]) -> tuple[int, str] | None:
    """(line number from 1, the entry) of the longest entry that is the module or a package above it."""
    best = None
    for number, entries in enumerate(layers, 1):
        for entry in entries:
            if (module == entry or module.startswith(entry + ".")) and (best is None or len(entry) > len(best[1])):
                best = (number, entry)
    return best


# ------------------------------------------------------------------------------------------------- the checks

def order_violations(imports: Iterable[Import], layers: list[list[str]]) -> list[str]:
    """Each import from one entry into another that is not on a line above it, said in words."""
    out = []
    for imp in imports:
        src, dst = layer_of(imp.source, layers), layer_of(imp.target, layers)
        if src is None or dst is None or src[1] == dst[1]:
            continue
        if dst[0] == src[0]:
            why = "both are on one line of the order, and apps on one line import none of each other"
        elif dst[0] > src[0]:
            why = "an upward import"
        else:
            continue
        out.append(f"{where(imp)}: {imp.source} (line {src[0]}, "
                   f"`{src[1]}`) imports {imp.target} (line {dst[0]}, `{dst[1]}`): {why}")
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The cycles of a directed graph, one path per strongly connected component of more than one node (or a
    node that points at itself), each as a → b → … → a."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, ()):
                found.append(_path_through(sorted(component), edges))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def _path_through(component: list[str], edges: dict[str, set[str]]) -> list[str]:
    """A closed walk inside the component from its first node back to it (breadth first: a shortest one)."""
    start, members = component[0], set(component)
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(edges.get(v, ())):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [*reversed(path), start]
                if w in members and w not in came:
                    came[w] = v
                    nxt.append(w)
        frontier = nxt
    return component


def app_graph(imports: Iterable[Import], apps: set[str], layers: list[list[str]] = ()) -> dict[str, set[str]]:
    """Which app imports which; a module the order places apart from its app (`arena_site.urls`) is a node of
    its own."""
    def node(module: str) -> str | None:
        placed = layer_of(module, list(layers))
        app = module.split(".")[0]
        return placed[1] if placed else app if app in apps else None

    graph: dict[str, set[str]] = {}
    for imp in imports:
        a, b = node(imp.source), node(imp.target)
        if a is not None and b is not None and a != b:
            graph.setdefault(a, set()).add(b)
    return graph


def file_graph(imports: Iterable[Import], part: Callable[[str], str]) -> dict[str, set[str]]:
    """Which module imports which, for the imports whose two ends are in one part (`part(module)`), the
    imported one a module of the checkout (not a name inside one, nor a package's `__init__` a child imports
    through `from pkg import child`: that is read as the child)."""
    graph: dict[str, set[str]] = {}
    for imp in imports:
        if imp.source != imp.target and part(imp.source) == part(imp.target) and _is_module(_root_of(imp), imp.target):
            graph.setdefault(imp.source, set()).add(imp.target)
    return graph


def _root_of(imp: Import) -> Path:
    """The folder the import's dotted names start from (its file's path minus the module's parts)."""
    depth = len(imp.source.split(".")) - (imp.path.name == "__init__.py")
    return imp.path.parents[depth - 1]


def platform_apps() -> set[str]:
    return {p.parent.name for p in PLATFORM.glob("*/__init__.py")}


def platform_imports() -> list[Import]:
    return [imp for path in python_files(PLATFORM, skip={"migrations"}) for imp in imports_of(path, PLATFORM)]


# ------------------------------------------------------------------------------------------------------ tests

def test_arena_never_imports_django_or_the_platform():
    forbidden = set(FRAMEWORKS) | platform_apps()
    bad = [where(imp)
           for path in python_files(ARENA) for imp in imports_of(path, ROOT)
           if imp.target.split(".")[0] in forbidden]
    assert not bad, "arena/ must run without the platform:\n" + "\n".join(bad)


def test_no_game_imports_the_referee_sandbox_or_anything_outside_the_games():
    bad = [where(imp)
           for path in python_files(ARENA / "games") for imp in imports_of(path, ROOT)
           if (imp.target == "arena" or imp.target.startswith("arena.")) and not imp.target.startswith("arena.games")
           or imp.target.split(".")[0] in {"grpc", "google"}]
    assert not bad, "games are pure rules (arena.games only):\n" + "\n".join(bad)


def test_every_platform_app_has_its_place_in_the_order():
    layers = dependency_order(README.read_text(encoding="utf-8"))
    listed = [entry for line in layers for entry in line]
    assert len(listed) == len(set(listed)), f"an app is listed twice in the dependency order: {listed}"
    missing = sorted(app for app in platform_apps() if layer_of(app, layers) is None)
    assert not missing, f"add these apps to platform/README.md's Dependency order: {missing}"


def test_platform_imports_follow_the_dependency_order():
    layers = dependency_order(README.read_text(encoding="utf-8"))
    bad = order_violations(platform_imports(), layers)
    assert not bad, ("imports that break platform/README.md's Dependency order (move the code down, or send a "
                     "signal the app above listens to):\n" + "\n".join(bad))


def test_platform_apps_import_each_other_without_a_cycle():
    layers = dependency_order(README.read_text(encoding="utf-8"))
    found = cycles(app_graph(platform_imports(), platform_apps(), layers))
    assert not found, "cycles between platform apps:\n" + "\n".join(" → ".join(c) for c in found)


def test_no_circle_of_files_inside_a_part():
    engine = [imp for path in python_files(ARENA, skip={"v1"}) for imp in imports_of(path, ROOT)]
    found = cycles(file_graph(engine, lambda module: "arena"))
    found += cycles(file_graph(platform_imports(), lambda module: module.split(".")[0]))
    assert not found, ("files that import each other in a circle (pass what is needed in, send a task by name or "
                       "a signal, or move the shared piece down):\n" + "\n".join(" → ".join(c) for c in found))


# -------------------------------------------------------------------------- the checker itself, on made-up code

def _made_up(tmp_path: Path, files: dict[str, str]) -> list[Import]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return [imp for path in python_files(tmp_path) for imp in imports_of(path, tmp_path)]


def test_the_checker_names_an_upward_import_even_inside_a_function(tmp_path):
    imports = _made_up(tmp_path, {
        "low/__init__.py": "", "high/__init__.py": "", "high/views.py": "from low import models\n",
        "low/models.py": "def f():\n    from high.views import thing  # dodging a cycle\n",
    })
    bad = order_violations(imports, [["low"], ["high"]])
    assert len(bad) == 1
    assert "low.models (line 1, `low`) imports high.views (line 2, `high`): an upward import" in bad[0]
    assert "from high.views import thing" in bad[0] and "low/models.py:2" in bad[0]


def test_the_checker_finds_a_cycle_and_siblings_importing_each_other(tmp_path):
    imports = _made_up(tmp_path, {
        "a/__init__.py": "", "b/__init__.py": "", "c/__init__.py": "",
        "a/x.py": "import b.y\n", "b/y.py": "from c import z\n", "c/z.py": "from . import w\nimport a.x\n",
        "c/w.py": "",
    })
    assert cycles(app_graph(imports, {"a", "b", "c"})) == [["a", "b", "c", "a"]]
    assert any("both are on one line" in v for v in order_violations(imports, [["a", "b"], ["c"]]))


def test_the_checker_reads_relative_imports_and_model_references(tmp_path):
    imports = _made_up(tmp_path, {
        "app/__init__.py": "", "app/sub/__init__.py": "",
        "app/sub/m.py": "from ..models import X\nfrom . import n\nfrom .. import models\n",
        "app/models.py": "ForeignKey('other.Thing', on_delete=None)\nmodels.OneToOneField(to='third.T')\n",
    })
    assert {(i.source, i.target) for i in imports} == {
        ("app.sub.m", "app.models"), ("app.sub.m", "app.sub"), ("app.models", "other"), ("app.models", "third")}


def test_the_order_is_read_from_the_readme_lines_with_modules_placed_apart():
    layers = dependency_order("## Dependency order\nintro\n\n1. `site` — settings\n2. `a`, `b` — things\n"
                              "3. `site.urls` — the URLs\n## Next\n4. `x` — not in the section\n")
    assert layers == [["site"], ["a", "b"], ["site.urls"]]
    assert layer_of("site.urls", layers) == (3, "site.urls") and layer_of("site.settings", layers) == (1, "site")


def test_the_checker_finds_a_circle_of_files_through_a_function_level_or_type_checking_import(tmp_path):
    imports = _made_up(tmp_path, {
        "app/__init__.py": "", "app/services.py": "def send():\n    from app.tasks import run  # by the back door\n",
        "app/tasks.py": "from app import services\n", "app/views.py": "from app.services import send\n",
        "game/__init__.py": "", "game/position.py": "",
        "game/state.py": "from game.turn import play\nfrom game.position import Position\n",
        "game/turn.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game.state import State\n",
        "other/__init__.py": "", "other/m.py": "import app.views\n",
    })
    by_top = file_graph(imports, lambda module: module.split(".")[0])
    assert cycles(by_top) == [["app.services", "app.tasks", "app.services"], ["game.state", "game.turn", "game.state"]]
    assert "other.m" not in by_top  # an import into another part is the order's business, not a circle of files
