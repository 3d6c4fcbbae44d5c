"""Where logs and datasets live: a local folder or any fsspec URL (``s3://``, ``gs://``, ``file://`` …).

Files are written atomically: to a temporary name in the store's ``_tmp/`` folder, then renamed, so a reader
(or a retried task) never sees half a file, and a task run twice leaves the same bytes. Local paths need only
the standard library; URLs need fsspec and the filesystem's own package (the ``cluster`` extra brings
fsspec and s3fs). A URL's options come from fsspec's configuration or the filesystem's usual settings,
e.g. ``AWS_ENDPOINT_URL_S3`` or ``FSSPEC_S3_ENDPOINT_URL`` for an S3-compatible server.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import tempfile
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

LOG_SUFFIX = ".knock"
TEMP_MARK = ".tmp-"  #: temporary files are named ``NAME.tmp-RUN-ATTEMPT``; never ``*.knock``
#: The folder of a store's temporary files (``_tmp/a~game-1.knock.tmp-RUN-ATTEMPT`` becomes ``a/game-1.knock``):
#: one folder, so that what stopped or killed runs left behind is found without listing the whole store.
MANIFEST = "_manifest"  #: a run's manifest: the folder of its parts, in its logs' folder (``knock simulate``)
READERS = 16  #: files read at once (an object store answers many reads at once)
TEMP_DIR = "_tmp"  # (a leading underscore: Hive, Spark and Arrow take it for a hidden folder)
OBJECT_STORES = frozenset({"s3", "s3a", "gs", "gcs", "az", "abfs", "abfss"})


def is_url(location: str) -> bool:
    """A location with a protocol (``s3://bucket/logs``); anything else is a local path."""
    return "://" in location


def _filesystem(url: str) -> tuple[Any, str]:
    try:
        import fsspec
    except ImportError:  # pragma: no cover - the cluster extra is not installed
        raise OSError(f"{url}: URLs need fsspec: pip install 'knock-gin[cluster]'") from None
    try:
        fs, path = fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as err:  # an unknown protocol, or its package missing
        raise OSError(f"{url}: {err}") from None
    fs.invalidate_cache()  # fsspec keeps listings per filesystem: other processes (workers) change the store
    return fs, str(path)


def resolve(location: str) -> str:
    """A location as every process reads it, fixed on the client: a local path (or a ``file://`` URL's path)
    made absolute, since a worker's working directory is not the client's; other URLs as they are.

    >>> resolve("/data/run/") == "/data/run" and resolve("s3://bucket/run") == "s3://bucket/run"
    True
    """
    if location.startswith("file://"):
        return "file://" + os.path.abspath(location.removeprefix("file://"))
    if is_url(location):
        return location.rstrip("/") or location
    return os.path.abspath(location)


def _missing(location: str, why: str) -> FileNotFoundError:
    return FileNotFoundError(errno.ENOENT, why, location)


def check_output(location: str) -> str:
    """The resolved location of a folder to write into, checked from the client before any work is sent: the
    folder may be new, but the folder it is made in (on an object store, the bucket) must exist; nothing is
    created here, and no bucket ever is.

    Raises:
        FileNotFoundError: the parent folder or the bucket does not exist.
        NotADirectoryError: the location is a file.
    """
    shared(location)
    resolved = resolve(location)
    if not is_url(resolved) or resolved.startswith("file://"):
        path = Path(resolved.removeprefix("file://"))
        if path.exists() and not path.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "a file, not a folder", location)
        if not path.parent.is_dir():
            raise _missing(location, f"no folder {path.parent} to make it in (missing folders are not created)")
        return resolved
    store = Store(resolved)
    if store.object_store:
        bucket = store.root.split("/", 1)[0]
        if not store.fs.exists(bucket):
            raise _missing(location, f"no bucket {bucket} (buckets are never created)")
        return resolved
    parent = store.root.rpartition("/")[0]
    if parent and not store.fs.isdir(parent):
        raise _missing(location, f"no folder {parent} to make it in (missing folders are not created)")
    return resolved


def check_inputs(locations: list[str]) -> None:
    """Every location named to read from exists, or (a glob) matches something: a name that does not is an error
    before any work starts, not a verdict.

    Raises:
        FileNotFoundError: for the first that does not.
    """
    for location in locations:
        globbed = any(ch in location for ch in "*?[")
        if not is_url(location):
            if Path(location).exists() or (globbed and find_logs([location])):
                continue
        else:
            fs, path = _filesystem(location)
            if fs.exists(path) or (globbed and fs.glob(path)):
                continue
        raise _missing(location, os.strerror(errno.ENOENT).lower())


class Store:
    """A folder of files, local or reached through fsspec; names are relative, with ``/`` between parts. The
    location is resolved where the store is made (``resolve``), and travels to workers resolved."""

    def __init__(self, location: str) -> None:
        self.location = resolve(location)
        self.fs: Any = None
        self.root = self.location
        if is_url(location):
            self.fs, self.root = _filesystem(self.location)
            self.root = self.root.rstrip("/")

    def __repr__(self) -> str:
        return f"Store({self.location!r})"

    def __reduce__(self) -> tuple[type[Store], tuple[str]]:  # travels to workers as its location
        return Store, (self.location,)

    def _full(self, name: str) -> str:
        return f"{self.root}/{name}" if name else self.root

    def makedirs(self, name: str = "") -> None:
        if self.fs is None:
            Path(self._full(name)).mkdir(parents=True, exist_ok=True)
        else:
            self.fs.makedirs(self._full(name), exist_ok=True)

    @property
    def object_store(self) -> bool:
        """Whether an object is stored whole by one upload (S3, GCS, Azure): there, upload is atomic already."""
        protocols = self.fs.protocol if self.fs is not None else ()
        return bool(OBJECT_STORES.intersection([protocols] if isinstance(protocols, str) else protocols))

    def _temp(self, name: str, tag: str) -> str:
        return f"{TEMP_DIR}/{name.replace('/', '~')}{TEMP_MARK}{tag}-{uuid.uuid4().hex[:8]}"

    def write(self, name: str, data: bytes, tag: str) -> None:
        """Write a whole file atomically: under a temporary name, then renamed (on an object store, one upload).
        ``tag`` (the run's id) goes into the temporary name, so leftovers of a lost attempt can be removed.
        """
        if self.fs is None:
            with self.writing(name, tag) as stream:
                stream.write(data)
        elif self.object_store:
            self.fs.pipe_file(self._full(name), data)
        else:
            temp = self._temp(name, tag)
            self.fs.makedirs(self._full(name.rpartition("/")[0]), exist_ok=True)
            self.fs.makedirs(self._full(TEMP_DIR), exist_ok=True)
            self.fs.pipe_file(self._full(temp), data)
            self.fs.mv(self._full(temp), self._full(name))

    @contextlib.contextmanager
    def writing(self, name: str, tag: str) -> Iterator[IO[bytes]]:
        """A stream to write ``name`` through, for files written piece by piece: it appears under that name
        only once complete. Elsewhere than a local folder the file is made in a local temporary file first.
        """
        if self.fs is None:
            temp = self._full(self._temp(name, tag))
            Path(temp).parent.mkdir(parents=True, exist_ok=True)
            Path(self._full(name)).parent.mkdir(parents=True, exist_ok=True)
            try:
                with open(temp, "wb") as stream:
                    yield stream
                os.replace(temp, self._full(name))
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(temp)
            return
        with tempfile.TemporaryDirectory(prefix="knock-") as folder:
            local = os.path.join(folder, "part")
            with open(local, "wb") as stream:
                yield stream
            if self.object_store:
                self.fs.put_file(local, self._full(name))
            else:
                temp = self._temp(name, tag)
                self.fs.makedirs(self._full(name.rpartition("/")[0]), exist_ok=True)
                self.fs.makedirs(self._full(TEMP_DIR), exist_ok=True)
                self.fs.put_file(local, self._full(temp))
                self.fs.mv(self._full(temp), self._full(name))

    def exists(self, name: str) -> bool:
        if self.fs is None:
            return Path(self._full(name)).exists()
        self.fs.invalidate_cache(self._full(name))
        return bool(self.fs.exists(self._full(name)))

    def read(self, name: str) -> bytes:
        if self.fs is None:
            return Path(self._full(name)).read_bytes()
        self.fs.invalidate_cache(self._full(name))
        data: bytes = self.fs.cat_file(self._full(name))
        return data

    def sizes(self, folder: str = "") -> dict[str, int]:
        """Every file under ``folder`` (recursively) with its size, by name relative to the store."""
        base = self._full(folder)
        if self.fs is None:
            top = Path(base)
            if not top.is_dir():
                return {}
            return {p.relative_to(self.root).as_posix(): p.stat().st_size for p in top.rglob("*") if p.is_file()}
        self.fs.invalidate_cache()
        if not self.fs.isdir(base):
            return {}
        found = self.fs.find(base, detail=True)
        return {str(p)[len(self.root) + 1 :]: int(info["size"]) for p, info in found.items()}

    def remove(self, names: list[str]) -> None:
        for name in names:
            if self.fs is None:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(self._full(name))
            else:
                self.fs.rm(self._full(name))

    def size(self, name: str) -> int | None:
        """A file's size, or None where there is none."""
        if self.fs is None:
            try:
                return os.stat(self._full(name)).st_size
            except (FileNotFoundError, NotADirectoryError):
                return None
        self.fs.invalidate_cache(self._full(name))
        try:
            return int(self.fs.size(self._full(name)))
        except FileNotFoundError:
            return None

    def remove_leftovers(self, tag: str | None = None) -> int:
        """Remove the temporary files of a run (``tag``) that lost attempts left behind, or (None) every run's: what
        runs stopped or killed left; returns how many. Only the temporary folder is listed, not the store."""
        names = [n for n in self.sizes(TEMP_DIR) if tag is None or f"{TEMP_MARK}{tag}-" in n]
        self.remove(names)
        return len(names)


def shared(location: str | None) -> None:
    """Refuse a location that other processes cannot reach: a ``memory://`` store lives in one process.

    Raises:
        OSError: for such a location.
    """
    if location is not None and location.startswith("memory://"):
        raise OSError(f"{location}: memory:// is private to one process and workers are other processes "
                      "(use a folder, file:// or s3://)")  # fmt: skip


def read_bytes(location: str) -> bytes:
    """The bytes of one file, at a local path or a URL."""
    if not is_url(location):
        return Path(location).read_bytes()
    fs, path = _filesystem(location)
    data: bytes = fs.cat_file(path)
    return data


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """A name's sort key in natural order, numbers by value: ``game-2`` before ``game-10``.

    >>> sorted(["game-10", "game-2", "game-1"], key=natural_key)
    ['game-1', 'game-2', 'game-10']
    """
    return tuple((1, int(part)) if part.isdigit() else (0, part) for part in re.split(r"(\d+)", name) if part)


def read_many(store: Store, names: Sequence[str]) -> Iterator[bytes]:
    """The bytes of each file named, in order, read ``READERS`` at a time."""
    with ThreadPoolExecutor(max_workers=READERS) as pool:
        for start in range(0, len(names), 4 * READERS):
            yield from pool.map(store.read, names[start : start + 4 * READERS])


def manifest_logs(location: str) -> list[str] | None:
    """The logs a run's manifest lists (``_manifest/``), if the folder holds one: each once, in natural order, in
    the form of ``location``; None for a folder without a manifest (or not a folder)."""
    store = Store(location)
    parts = sorted(n for n in store.sizes(MANIFEST) if n.endswith(".json"))
    if not parts:
        return None
    names = {entry["log"] for data in read_many(store, parts) for entry in json.loads(data)["games"] if entry["log"]}
    base = location.rstrip("/") if is_url(location) else location
    return [f"{base}/{name}" if is_url(location) else str(Path(location) / name)
            for name in sorted(names, key=natural_key)]  # fmt: skip


def find_logs(locations: list[str]) -> list[str]:
    """The logs named: files, the logs of folders, and what a quoted glob (``'out/*.knock'``) matches; each a local
    path or a URL, in the form given, a folder's or a glob's in natural order (``game-2`` before ``game-10``). A
    folder that holds a run's manifest (``knock simulate``) gives the logs the manifest lists, without listing the
    folder (a listed log that is missing is then reported missing); any other folder its ``*.knock`` files,
    recursively. A name that matches nothing is kept, so that reading it reports the error.
    """
    out: list[str] = []
    for loc in locations:
        if (listed := manifest_logs(loc)) is not None:
            out += listed
            continue
        if not is_url(loc):
            p = Path(loc)
            if p.is_dir():
                out += sorted((str(f) for f in p.rglob(f"*{LOG_SUFFIX}")), key=natural_key)
            elif not p.exists() and any(ch in loc for ch in "*?["):
                anchor = Path(p.anchor or ".")
                matched = anchor.glob(str(p.relative_to(anchor)) if p.is_absolute() else loc)
                out += sorted((str(f) for f in matched), key=natural_key)
            else:
                out.append(loc)
            continue
        fs, path = _filesystem(loc)
        if fs.isdir(path):
            found = sorted((f for f in fs.find(path) if str(f).endswith(LOG_SUFFIX)), key=natural_key)
            out += [fs.unstrip_protocol(f) for f in found]
        elif any(ch in path for ch in "*?["):
            out += [fs.unstrip_protocol(f) for f in sorted(fs.glob(path), key=natural_key)]
        else:
            out.append(loc)
    return out


def relative_name(location: str, roots: list[str]) -> str:
    """A log's name for tables and reports: its location under the folder it was found in, without the
    ``.knock`` suffix (``game-17``); the whole location when no folder named contains it.
    """
    name = location
    for root in roots:
        base = root.rstrip("/") + "/"
        if location.startswith(base):
            name = location[len(base) :]
            break
    else:
        name = name.rpartition("/")[2]
    return name[: -len(LOG_SUFFIX)] if name.endswith(LOG_SUFFIX) else name
