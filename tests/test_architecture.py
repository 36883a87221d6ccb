"""Project-wide guards: imports run one way (between the packages, and between bot's
subpackages; the bot reaches storage through its face only), the documented pattern table
cannot drift, and docs/architecture.md gives every module its job."""

from __future__ import annotations

import ast
import re
from fnmatch import fnmatch
from pathlib import Path

from engine.pattern_table import pattern_table_markdown

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"engine": {"storage", "bot", "telegram", "sqlalchemy"}, "storage": {"bot", "telegram"}}


# What each of bot's subpackages may import from the others (bot/app.py and
# bot/__main__.py, which put everything together, may import all): words and operations
# at the bottom; dialogs and pictures over words; delivery carries updates and answers
# without knowing any handler; handlers use all of those; console mode runs the whole app.
BOT_LAYERS = {
    "text": set(),
    "ops": set(),
    "dialogs": {"text"},
    "pictures": {"text"},
    "delivery": {"ops", "text"},
    "handlers": {"delivery", "dialogs", "ops", "pictures", "text"},
    "webapp": {"delivery", "dialogs", "handlers", "ops", "pictures", "text"},
    "console": {"app", "delivery", "ops", "text"},
}


# What each of storage's wings may import from the rest of storage. The face stands at the
# root: ``ledger.py`` over everything, ``models.py`` and ``errors.py`` (the contracts and the
# refusals) under everything. How a unit of work runs (sql) knows no service and no queue.
STORAGE_LAYERS = {
    "sql": set(),
    "queues": {"sql", "errors", "models"},
    "services": {"sql", "errors", "models"},
    "files": {"sql", "services", "errors", "models"},
}
# ``delivery.py``: what the bot's delivery pipeline and the queues exchange, from the queues
# (and the drafts' prune batch).
STORAGE_FACE: dict[str, set[str] | None] = {"ledger": None, "models": set(), "errors": set(),
                                            "delivery": {"queues", "services"}}


def _modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return out


def _imports(path: Path) -> set[str]:
    return {m.split(".")[0] for m in _modules(path)}


def test_imports_run_one_way() -> None:
    for package, banned in FORBIDDEN.items():
        for path in (ROOT / package).rglob("*.py"):
            bad = _imports(path) & banned
            assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_bot_subpackages_import_one_way() -> None:
    bot = ROOT / "bot"
    assert {p.name for p in bot.iterdir() if (p / "__init__.py").exists()} == set(BOT_LAYERS)
    for package, allowed in BOT_LAYERS.items():
        for path in (bot / package).rglob("*.py"):
            used = {m.split(".")[1] for m in _modules(path)
                    if m.startswith("bot.") and m.count(".") >= 1}
            bad = used - allowed - {package}
            assert not bad, f"{path.relative_to(ROOT)} imports bot.{sorted(bad)}"


def test_storage_wings_import_downwards_only() -> None:
    storage = ROOT / "storage"
    wings = {p.name for p in storage.iterdir() if (p / "__init__.py").exists()}
    assert wings - {"migrations"} == set(STORAGE_LAYERS)
    face = {p.stem for p in storage.glob("*.py") if p.name != "__init__.py"}
    assert face == set(STORAGE_FACE), f"storage/ holds at its root only {sorted(STORAGE_FACE)}"
    checked: list[tuple[Path, set[str] | None, str]] = [
        (path, allowed, wing) for wing, allowed in STORAGE_LAYERS.items()
        for path in (storage / wing).rglob("*.py")]
    checked += [(storage / f"{name}.py", allowed, name) for name, allowed in STORAGE_FACE.items()]
    for path, allowed, own in checked:
        if allowed is None:
            continue
        used = {m.split(".")[1] for m in _modules(path)
                if m.startswith("storage.") and m.count(".") >= 1}
        bad = used - allowed - {own}
        assert not bad, f"{path.relative_to(ROOT)} imports storage.{sorted(bad)}"


def test_bot_reaches_storage_through_its_face_only() -> None:
    """The bot imports storage's face (``storage.ledger``, ``storage.models``,
    ``storage.errors``, ``storage.delivery``), never a wing behind it."""
    face = {f"storage.{name}" for name in STORAGE_FACE}
    for path in (ROOT / "bot").rglob("*.py"):
        used = {m for m in _modules(path) if m == "storage" or m.startswith("storage.")}
        bad = {m for m in used if m not in face and m.rsplit(".", 1)[0] not in face}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)} (not storage's face)"


def test_documented_pattern_table_is_generated_from_the_definitions() -> None:
    usage = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    assert pattern_table_markdown("chengdu") in usage


def _documented(doc: str) -> tuple[set[str], dict[str, set[str]]]:
    """What "Each module's job" names: every path written out anywhere in the document, and
    under each ``### `folder/` `` heading the names in backticks (``a.py``, ``patterns/``,
    ``presets/*.toml``), relative to that folder."""
    jobs = doc[doc.index("## Each module's job"):doc.index("## Tests")]
    parts = re.split(r"^### `([^`]+)`.*$", jobs, flags=re.MULTILINE)
    by_folder = {folder: {name for quoted in re.findall(r"`([^`]+)`", text)
                          for name in re.findall(r"[\w/.*]+", quoted)}
                 for folder, text in zip(parts[1::2], parts[2::2], strict=True)}
    return set(re.findall(r"[\w/.*]+\.py", doc)), by_folder


def _has_a_line(path: str, paths: set[str], by_folder: dict[str, set[str]]) -> bool:
    if path in paths:
        return True
    for folder, names in by_folder.items():
        rel = path.removeprefix(folder)
        if rel != path and any(name == rel or (name.endswith("/") and rel.startswith(name))
                               or ("*" in name and fnmatch(rel, name)) for name in names):
            return True
    return False


def test_architecture_gives_every_module_its_job() -> None:
    paths, by_folder = _documented((ROOT / "docs" / "architecture.md").read_text("utf-8"))
    modules = sorted(str(p.relative_to(ROOT)) for package in ("bot", "storage", "engine")
                     for p in (ROOT / package).rglob("*.py") if p.name != "__init__.py")
    missing = [m for m in modules if not _has_a_line(m, paths, by_folder)]
    assert not missing, f"docs/architecture.md does not say what these do: {missing}"
    stale = sorted(p for p in paths if p.startswith(("bot/", "storage/", "engine/"))
                   and "*" not in p and not (ROOT / p).exists())
    assert not stale, f"docs/architecture.md names modules that do not exist: {stale}"


def test_make_test_runs_the_exclusive_module_alone() -> None:
    from tests.conftest import EXCLUSIVE_MODULE

    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"pytest -q -m exclusive {EXCLUSIVE_MODULE}\n" in makefile
