"""Type stubs of the extension module built from the crate (src/bindings)."""

from os import PathLike
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
SEEDING_SCHEME: int
ALGORITHMS: List[str]

_Size = Union[str, Tuple[int, int], Tuple[int, int, int]]
_Cell = Union[str, Tuple[int, int], Tuple[int, int, int]]
_Mask = Union[str, bytes, "PathLike[str]"]

class Table:
    """An Arrow table held in Rust, exported through the Arrow PyCapsule interface."""

    def __arrow_c_schema__(self) -> Any: ...
    def __arrow_c_stream__(self, requested_schema: Optional[Any] = None) -> Any: ...
    @property
    def num_rows(self) -> int: ...
    @property
    def column_names(self) -> List[str]: ...
    @property
    def metadata(self) -> Dict[str, str]: ...
    def __len__(self) -> int: ...

class Level:
    """One maze regenerated from its identifiers, measured between its ends."""

    def __init__(
        self,
        algo: str,
        size: Optional[_Size],
        seed: int,
        index: int,
        *,
        ends: Optional[str] = None,
        entrance: Optional[_Cell] = None,
        exit: Optional[_Cell] = None,
        mask: Optional[_Mask] = None,
        braid: Optional[float] = None,
        grid: Optional[str] = None,
    ) -> None: ...
    @property
    def grid(self) -> str: ...
    def neighbours(self, cell: int) -> List[Tuple[int, int, bool]]: ...
    @property
    def algo(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def index(self) -> int: ...
    @property
    def maze_seed(self) -> int: ...
    @property
    def braid(self) -> float: ...
    @property
    def mask_hash(self) -> int: ...
    @property
    def mask(self) -> Optional[str]: ...
    @property
    def entrance(self) -> int: ...
    @property
    def exit(self) -> int: ...
    @property
    def walls(self) -> npt.NDArray[np.uint64]: ...
    @property
    def solution(self) -> npt.NDArray[np.uint32]: ...
    @property
    def solution_coords(self) -> npt.NDArray[np.int64]: ...
    @property
    def connection_list(self) -> npt.NDArray[np.bool_]: ...
    @property
    def metrics(self) -> Dict[str, Union[str, int, float]]: ...
    def render(
        self, fmt: str = "unicode", *, solution: bool = True, cell_px: Optional[int] = None
    ) -> str: ...
    def _repr_svg_(self) -> str: ...

def generate(
    algo: Union[str, Sequence[str]],
    size: Optional[_Size],
    count: Union[int, str],
    seed: Optional[int] = None,
    *,
    threads: Optional[int] = None,
    ends: Optional[str] = None,
    entrance: Optional[_Cell] = None,
    exit: Optional[_Cell] = None,
    accept: Optional[str] = None,
    max_candidates: Optional[int] = None,
    mask: Optional[_Mask] = None,
    braid: Optional[float] = None,
    grid: Optional[str] = None,
    no_time_limit: bool = False,
) -> Table: ...
def read_store(path: Union[str, "PathLike[str]"]) -> Table: ...
