from arena.v1 import minos_pb2 as _minos_pb2
from arena.v1 import thebes_pb2 as _thebes_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TimeControl(_message.Message):
    __slots__ = ("decision_ms", "bank_ms", "startup_ms", "max_faults")
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    STARTUP_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_FAULTS_FIELD_NUMBER: _ClassVar[int]
    decision_ms: int
    bank_ms: int
    startup_ms: int
    max_faults: int
    def __init__(self, decision_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., startup_ms: _Optional[int] = ..., max_faults: _Optional[int] = ...) -> None: ...

class Player(_message.Message):
    __slots__ = ("seat", "name")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class StartMatchRequest(_message.Message):
    __slots__ = ("protocol", "game", "params_json", "seat", "players", "time_control", "engine_version", "arena_version", "bot_seed")
    PROTOCOL_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PARAMS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    ENGINE_VERSION_FIELD_NUMBER: _ClassVar[int]
    ARENA_VERSION_FIELD_NUMBER: _ClassVar[int]
    BOT_SEED_FIELD_NUMBER: _ClassVar[int]
    protocol: str
    game: str
    params_json: str
    seat: int
    players: _containers.RepeatedCompositeFieldContainer[Player]
    time_control: TimeControl
    engine_version: str
    arena_version: str
    bot_seed: int
    def __init__(self, protocol: _Optional[str] = ..., game: _Optional[str] = ..., params_json: _Optional[str] = ..., seat: _Optional[int] = ..., players: _Optional[_Iterable[_Union[Player, _Mapping]]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., engine_version: _Optional[str] = ..., arena_version: _Optional[str] = ..., bot_seed: _Optional[int] = ...) -> None: ...

class StartMatchResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TimeLeft(_message.Message):
    __slots__ = ("decision_ms", "bank_ms")
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    decision_ms: int
    bank_ms: int
    def __init__(self, decision_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ...) -> None: ...

class LegalAction(_message.Message):
    __slots__ = ("index", "text", "thebes", "minos")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    THEBES_FIELD_NUMBER: _ClassVar[int]
    MINOS_FIELD_NUMBER: _ClassVar[int]
    index: int
    text: str
    thebes: _thebes_pb2.ThebesAction
    minos: _minos_pb2.MinosAction
    def __init__(self, index: _Optional[int] = ..., text: _Optional[str] = ..., thebes: _Optional[_Union[_thebes_pb2.ThebesAction, _Mapping]] = ..., minos: _Optional[_Union[_minos_pb2.MinosAction, _Mapping]] = ...) -> None: ...

class DecideRequest(_message.Message):
    __slots__ = ("decision", "seat", "legal_actions", "time_left", "thebes", "minos")
    DECISION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_FIELD_NUMBER: _ClassVar[int]
    THEBES_FIELD_NUMBER: _ClassVar[int]
    MINOS_FIELD_NUMBER: _ClassVar[int]
    decision: int
    seat: int
    legal_actions: _containers.RepeatedCompositeFieldContainer[LegalAction]
    time_left: TimeLeft
    thebes: _thebes_pb2.ThebesObservation
    minos: _minos_pb2.MinosObservation
    def __init__(self, decision: _Optional[int] = ..., seat: _Optional[int] = ..., legal_actions: _Optional[_Iterable[_Union[LegalAction, _Mapping]]] = ..., time_left: _Optional[_Union[TimeLeft, _Mapping]] = ..., thebes: _Optional[_Union[_thebes_pb2.ThebesObservation, _Mapping]] = ..., minos: _Optional[_Union[_minos_pb2.MinosObservation, _Mapping]] = ...) -> None: ...

class DecideResponse(_message.Message):
    __slots__ = ("index", "text", "annotation")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ANNOTATION_FIELD_NUMBER: _ClassVar[int]
    index: int
    text: str
    annotation: str
    def __init__(self, index: _Optional[int] = ..., text: _Optional[str] = ..., annotation: _Optional[str] = ...) -> None: ...

class SeatOutcome(_message.Message):
    __slots__ = ("seat", "name", "score", "rank", "disqualified", "faults")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    DISQUALIFIED_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    score: float
    rank: int
    disqualified: bool
    faults: int
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., score: _Optional[float] = ..., rank: _Optional[int] = ..., disqualified: _Optional[bool] = ..., faults: _Optional[int] = ...) -> None: ...

class EndMatchRequest(_message.Message):
    __slots__ = ("seat", "seats", "thebes", "minos")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    THEBES_FIELD_NUMBER: _ClassVar[int]
    MINOS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatOutcome]
    thebes: _thebes_pb2.ThebesObservation
    minos: _minos_pb2.MinosObservation
    def __init__(self, seat: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatOutcome, _Mapping]]] = ..., thebes: _Optional[_Union[_thebes_pb2.ThebesObservation, _Mapping]] = ..., minos: _Optional[_Union[_minos_pb2.MinosObservation, _Mapping]] = ...) -> None: ...

class EndMatchResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
