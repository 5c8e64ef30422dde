from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ThebesAction(_message.Message):
    __slots__ = ("kind", "card", "site", "weeks", "zeppelin", "rumors", "assistant", "shovel", "permission", "text", "no_car")
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SITE_FIELD_NUMBER: _ClassVar[int]
    WEEKS_FIELD_NUMBER: _ClassVar[int]
    ZEPPELIN_FIELD_NUMBER: _ClassVar[int]
    RUMORS_FIELD_NUMBER: _ClassVar[int]
    ASSISTANT_FIELD_NUMBER: _ClassVar[int]
    SHOVEL_FIELD_NUMBER: _ClassVar[int]
    PERMISSION_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    NO_CAR_FIELD_NUMBER: _ClassVar[int]
    kind: str
    card: str
    site: str
    weeks: int
    zeppelin: bool
    rumors: bool
    assistant: bool
    shovel: bool
    permission: bool
    text: str
    no_car: bool
    def __init__(self, kind: _Optional[str] = ..., card: _Optional[str] = ..., site: _Optional[str] = ..., weeks: _Optional[int] = ..., zeppelin: _Optional[bool] = ..., rumors: _Optional[bool] = ..., assistant: _Optional[bool] = ..., shovel: _Optional[bool] = ..., permission: _Optional[bool] = ..., text: _Optional[str] = ..., no_car: _Optional[bool] = ...) -> None: ...

class ThebesCard(_message.Message):
    __slots__ = ("id", "kind", "city", "weeks", "site", "value")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    WEEKS_FIELD_NUMBER: _ClassVar[int]
    SITE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    city: str
    weeks: int
    site: str
    value: int
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., city: _Optional[str] = ..., weeks: _Optional[int] = ..., site: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...

class ThebesExhibition(_message.Message):
    __slots__ = ("slot", "id", "city", "weeks", "size", "points", "requirements")
    class RequirementsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    SLOT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    WEEKS_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENTS_FIELD_NUMBER: _ClassVar[int]
    slot: str
    id: str
    city: str
    weeks: int
    size: str
    points: int
    requirements: _containers.ScalarMap[str, int]
    def __init__(self, slot: _Optional[str] = ..., id: _Optional[str] = ..., city: _Optional[str] = ..., weeks: _Optional[int] = ..., size: _Optional[str] = ..., points: _Optional[int] = ..., requirements: _Optional[_Mapping[str, int]] = ...) -> None: ...

class ThebesToken(_message.Message):
    __slots__ = ("site", "kind", "value", "knowledge_site")
    SITE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    KNOWLEDGE_SITE_FIELD_NUMBER: _ClassVar[int]
    site: str
    kind: str
    value: int
    knowledge_site: str
    def __init__(self, site: _Optional[str] = ..., kind: _Optional[str] = ..., value: _Optional[int] = ..., knowledge_site: _Optional[str] = ...) -> None: ...

class ThebesBag(_message.Message):
    __slots__ = ("site", "size", "artifacts", "specialized", "general", "dirt", "first_dig_bonus")
    SITE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    ARTIFACTS_FIELD_NUMBER: _ClassVar[int]
    SPECIALIZED_FIELD_NUMBER: _ClassVar[int]
    GENERAL_FIELD_NUMBER: _ClassVar[int]
    DIRT_FIELD_NUMBER: _ClassVar[int]
    FIRST_DIG_BONUS_FIELD_NUMBER: _ClassVar[int]
    site: str
    size: int
    artifacts: _containers.RepeatedScalarFieldContainer[int]
    specialized: _containers.RepeatedScalarFieldContainer[str]
    general: int
    dirt: int
    first_dig_bonus: bool
    def __init__(self, site: _Optional[str] = ..., size: _Optional[int] = ..., artifacts: _Optional[_Iterable[int]] = ..., specialized: _Optional[_Iterable[str]] = ..., general: _Optional[int] = ..., dirt: _Optional[int] = ..., first_dig_bonus: _Optional[bool] = ...) -> None: ...

class ThebesScore(_message.Message):
    __slots__ = ("artifacts", "exhibitions", "congress", "majority", "total")
    ARTIFACTS_FIELD_NUMBER: _ClassVar[int]
    EXHIBITIONS_FIELD_NUMBER: _ClassVar[int]
    CONGRESS_FIELD_NUMBER: _ClassVar[int]
    MAJORITY_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    artifacts: int
    exhibitions: int
    congress: int
    majority: int
    total: int
    def __init__(self, artifacts: _Optional[int] = ..., exhibitions: _Optional[int] = ..., congress: _Optional[int] = ..., majority: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class ThebesSeat(_message.Message):
    __slots__ = ("seat", "place", "time", "year", "week", "finished", "cards", "tokens", "exhibitions", "permits_used", "books", "artifacts", "general_knowledge", "assistants", "shovels", "cars", "zeppelins", "special_permissions", "congress", "rumors", "score")
    class BooksEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ArtifactsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    YEAR_FIELD_NUMBER: _ClassVar[int]
    WEEK_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    EXHIBITIONS_FIELD_NUMBER: _ClassVar[int]
    PERMITS_USED_FIELD_NUMBER: _ClassVar[int]
    BOOKS_FIELD_NUMBER: _ClassVar[int]
    ARTIFACTS_FIELD_NUMBER: _ClassVar[int]
    GENERAL_KNOWLEDGE_FIELD_NUMBER: _ClassVar[int]
    ASSISTANTS_FIELD_NUMBER: _ClassVar[int]
    SHOVELS_FIELD_NUMBER: _ClassVar[int]
    CARS_FIELD_NUMBER: _ClassVar[int]
    ZEPPELINS_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_PERMISSIONS_FIELD_NUMBER: _ClassVar[int]
    CONGRESS_FIELD_NUMBER: _ClassVar[int]
    RUMORS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: str
    time: int
    year: int
    week: int
    finished: bool
    cards: _containers.RepeatedCompositeFieldContainer[ThebesCard]
    tokens: _containers.RepeatedCompositeFieldContainer[ThebesToken]
    exhibitions: _containers.RepeatedCompositeFieldContainer[ThebesExhibition]
    permits_used: _containers.RepeatedScalarFieldContainer[str]
    books: _containers.ScalarMap[str, int]
    artifacts: _containers.ScalarMap[str, int]
    general_knowledge: int
    assistants: int
    shovels: int
    cars: int
    zeppelins: int
    special_permissions: int
    congress: int
    rumors: _containers.RepeatedScalarFieldContainer[str]
    score: ThebesScore
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[str] = ..., time: _Optional[int] = ..., year: _Optional[int] = ..., week: _Optional[int] = ..., finished: _Optional[bool] = ..., cards: _Optional[_Iterable[_Union[ThebesCard, _Mapping]]] = ..., tokens: _Optional[_Iterable[_Union[ThebesToken, _Mapping]]] = ..., exhibitions: _Optional[_Iterable[_Union[ThebesExhibition, _Mapping]]] = ..., permits_used: _Optional[_Iterable[str]] = ..., books: _Optional[_Mapping[str, int]] = ..., artifacts: _Optional[_Mapping[str, int]] = ..., general_knowledge: _Optional[int] = ..., assistants: _Optional[int] = ..., shovels: _Optional[int] = ..., cars: _Optional[int] = ..., zeppelins: _Optional[int] = ..., special_permissions: _Optional[int] = ..., congress: _Optional[int] = ..., rumors: _Optional[_Iterable[str]] = ..., score: _Optional[_Union[ThebesScore, _Mapping]] = ...) -> None: ...

class ThebesObservation(_message.Message):
    __slots__ = ("seat", "players", "current_player", "terminal", "turn_order", "seats", "display", "exhibitions", "draw_pile_count", "stack3_count", "stack3_used", "discard", "unseen_cards", "bags", "exchange_run_seat", "exchange_run_count", "draw_pile", "stack3")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TERMINAL_FIELD_NUMBER: _ClassVar[int]
    TURN_ORDER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_FIELD_NUMBER: _ClassVar[int]
    EXHIBITIONS_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_COUNT_FIELD_NUMBER: _ClassVar[int]
    STACK3_COUNT_FIELD_NUMBER: _ClassVar[int]
    STACK3_USED_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    UNSEEN_CARDS_FIELD_NUMBER: _ClassVar[int]
    BAGS_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_RUN_SEAT_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_RUN_COUNT_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_FIELD_NUMBER: _ClassVar[int]
    STACK3_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    current_player: int
    terminal: bool
    turn_order: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[ThebesSeat]
    display: _containers.RepeatedCompositeFieldContainer[ThebesCard]
    exhibitions: _containers.RepeatedCompositeFieldContainer[ThebesExhibition]
    draw_pile_count: int
    stack3_count: int
    stack3_used: bool
    discard: _containers.RepeatedScalarFieldContainer[str]
    unseen_cards: _containers.RepeatedScalarFieldContainer[str]
    bags: _containers.RepeatedCompositeFieldContainer[ThebesBag]
    exchange_run_seat: int
    exchange_run_count: int
    draw_pile: _containers.RepeatedScalarFieldContainer[str]
    stack3: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., current_player: _Optional[int] = ..., terminal: _Optional[bool] = ..., turn_order: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[ThebesSeat, _Mapping]]] = ..., display: _Optional[_Iterable[_Union[ThebesCard, _Mapping]]] = ..., exhibitions: _Optional[_Iterable[_Union[ThebesExhibition, _Mapping]]] = ..., draw_pile_count: _Optional[int] = ..., stack3_count: _Optional[int] = ..., stack3_used: _Optional[bool] = ..., discard: _Optional[_Iterable[str]] = ..., unseen_cards: _Optional[_Iterable[str]] = ..., bags: _Optional[_Iterable[_Union[ThebesBag, _Mapping]]] = ..., exchange_run_seat: _Optional[int] = ..., exchange_run_count: _Optional[int] = ..., draw_pile: _Optional[_Iterable[str]] = ..., stack3: _Optional[_Iterable[str]] = ...) -> None: ...
