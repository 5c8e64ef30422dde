from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MinosAction(_message.Message):
    __slots__ = ("text", "kind", "args")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    text: str
    kind: str
    args: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, text: _Optional[str] = ..., kind: _Optional[str] = ..., args: _Optional[_Iterable[str]] = ...) -> None: ...

class MinosDie(_message.Message):
    __slots__ = ("id", "colour", "value", "owner", "row", "slot", "retrieved")
    ID_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    RETRIEVED_FIELD_NUMBER: _ClassVar[int]
    id: str
    colour: str
    value: int
    owner: int
    row: str
    slot: int
    retrieved: bool
    def __init__(self, id: _Optional[str] = ..., colour: _Optional[str] = ..., value: _Optional[int] = ..., owner: _Optional[int] = ..., row: _Optional[str] = ..., slot: _Optional[int] = ..., retrieved: _Optional[bool] = ...) -> None: ...

class MinosVaseSlot(_message.Message):
    __slots__ = ("vp", "seat")
    VP_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    vp: int
    seat: int
    def __init__(self, vp: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class MinosVase(_message.Message):
    __slots__ = ("id", "colour", "slots", "achieved")
    ID_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    ACHIEVED_FIELD_NUMBER: _ClassVar[int]
    id: str
    colour: str
    slots: _containers.RepeatedCompositeFieldContainer[MinosVaseSlot]
    achieved: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, id: _Optional[str] = ..., colour: _Optional[str] = ..., slots: _Optional[_Iterable[_Union[MinosVaseSlot, _Mapping]]] = ..., achieved: _Optional[_Iterable[int]] = ...) -> None: ...

class MinosRegion(_message.Message):
    __slots__ = ("id", "icons", "warriors", "city", "tower", "farms", "foundation", "sea")
    ID_FIELD_NUMBER: _ClassVar[int]
    ICONS_FIELD_NUMBER: _ClassVar[int]
    WARRIORS_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    TOWER_FIELD_NUMBER: _ClassVar[int]
    FARMS_FIELD_NUMBER: _ClassVar[int]
    FOUNDATION_FIELD_NUMBER: _ClassVar[int]
    SEA_FIELD_NUMBER: _ClassVar[int]
    id: int
    icons: _containers.RepeatedScalarFieldContainer[str]
    warriors: _containers.RepeatedScalarFieldContainer[int]
    city: int
    tower: bool
    farms: _containers.RepeatedScalarFieldContainer[int]
    foundation: str
    sea: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[int] = ..., icons: _Optional[_Iterable[str]] = ..., warriors: _Optional[_Iterable[int]] = ..., city: _Optional[int] = ..., tower: _Optional[bool] = ..., farms: _Optional[_Iterable[int]] = ..., foundation: _Optional[str] = ..., sea: _Optional[_Iterable[str]] = ...) -> None: ...

class MinosPalaceCard(_message.Message):
    __slots__ = ("card", "era", "trait")
    CARD_FIELD_NUMBER: _ClassVar[int]
    ERA_FIELD_NUMBER: _ClassVar[int]
    TRAIT_FIELD_NUMBER: _ClassVar[int]
    card: str
    era: str
    trait: str
    def __init__(self, card: _Optional[str] = ..., era: _Optional[str] = ..., trait: _Optional[str] = ...) -> None: ...

class MinosPlayer(_message.Message):
    __slots__ = ("seat", "coins", "weapons", "vp", "vp_parts", "temp_goods", "perm_goods", "hand", "hand_count", "hand_unknown_i", "hand_unknown_ii", "play_area", "palace", "income", "ability", "ability_level", "start_card", "start_region", "tracks", "supply", "reserve", "pieces_on_board", "ships", "sea_peoples_defeated", "trade_tiles", "foundation_tiles", "setup_drawn", "setup_drawn_count", "committed", "pending", "palace_limit", "modifiers")
    class VpPartsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class TempGoodsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class PermGoodsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class TracksEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class PiecesOnBoardEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ShipsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ModifiersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    WEAPONS_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    VP_PARTS_FIELD_NUMBER: _ClassVar[int]
    TEMP_GOODS_FIELD_NUMBER: _ClassVar[int]
    PERM_GOODS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_COUNT_FIELD_NUMBER: _ClassVar[int]
    HAND_UNKNOWN_I_FIELD_NUMBER: _ClassVar[int]
    HAND_UNKNOWN_II_FIELD_NUMBER: _ClassVar[int]
    PLAY_AREA_FIELD_NUMBER: _ClassVar[int]
    PALACE_FIELD_NUMBER: _ClassVar[int]
    INCOME_FIELD_NUMBER: _ClassVar[int]
    ABILITY_FIELD_NUMBER: _ClassVar[int]
    ABILITY_LEVEL_FIELD_NUMBER: _ClassVar[int]
    START_CARD_FIELD_NUMBER: _ClassVar[int]
    START_REGION_FIELD_NUMBER: _ClassVar[int]
    TRACKS_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    PIECES_ON_BOARD_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    SEA_PEOPLES_DEFEATED_FIELD_NUMBER: _ClassVar[int]
    TRADE_TILES_FIELD_NUMBER: _ClassVar[int]
    FOUNDATION_TILES_FIELD_NUMBER: _ClassVar[int]
    SETUP_DRAWN_FIELD_NUMBER: _ClassVar[int]
    SETUP_DRAWN_COUNT_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    PALACE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    MODIFIERS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    coins: int
    weapons: int
    vp: int
    vp_parts: _containers.ScalarMap[str, int]
    temp_goods: _containers.ScalarMap[str, int]
    perm_goods: _containers.ScalarMap[str, int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    hand_count: int
    hand_unknown_i: int
    hand_unknown_ii: int
    play_area: _containers.RepeatedScalarFieldContainer[str]
    palace: _containers.RepeatedCompositeFieldContainer[MinosPalaceCard]
    income: int
    ability: str
    ability_level: int
    start_card: str
    start_region: int
    tracks: _containers.ScalarMap[str, int]
    supply: int
    reserve: int
    pieces_on_board: _containers.ScalarMap[str, int]
    ships: _containers.ScalarMap[str, int]
    sea_peoples_defeated: _containers.RepeatedScalarFieldContainer[str]
    trade_tiles: _containers.RepeatedScalarFieldContainer[str]
    foundation_tiles: _containers.RepeatedScalarFieldContainer[str]
    setup_drawn: _containers.RepeatedScalarFieldContainer[str]
    setup_drawn_count: int
    committed: bool
    pending: _containers.RepeatedScalarFieldContainer[str]
    palace_limit: int
    modifiers: _containers.ScalarMap[str, int]
    def __init__(self, seat: _Optional[int] = ..., coins: _Optional[int] = ..., weapons: _Optional[int] = ..., vp: _Optional[int] = ..., vp_parts: _Optional[_Mapping[str, int]] = ..., temp_goods: _Optional[_Mapping[str, int]] = ..., perm_goods: _Optional[_Mapping[str, int]] = ..., hand: _Optional[_Iterable[str]] = ..., hand_count: _Optional[int] = ..., hand_unknown_i: _Optional[int] = ..., hand_unknown_ii: _Optional[int] = ..., play_area: _Optional[_Iterable[str]] = ..., palace: _Optional[_Iterable[_Union[MinosPalaceCard, _Mapping]]] = ..., income: _Optional[int] = ..., ability: _Optional[str] = ..., ability_level: _Optional[int] = ..., start_card: _Optional[str] = ..., start_region: _Optional[int] = ..., tracks: _Optional[_Mapping[str, int]] = ..., supply: _Optional[int] = ..., reserve: _Optional[int] = ..., pieces_on_board: _Optional[_Mapping[str, int]] = ..., ships: _Optional[_Mapping[str, int]] = ..., sea_peoples_defeated: _Optional[_Iterable[str]] = ..., trade_tiles: _Optional[_Iterable[str]] = ..., foundation_tiles: _Optional[_Iterable[str]] = ..., setup_drawn: _Optional[_Iterable[str]] = ..., setup_drawn_count: _Optional[int] = ..., committed: _Optional[bool] = ..., pending: _Optional[_Iterable[str]] = ..., palace_limit: _Optional[int] = ..., modifiers: _Optional[_Mapping[str, int]] = ...) -> None: ...

class MinosTurn(_message.Message):
    __slots__ = ("seat", "die", "row", "slot", "strength", "bonus_pending", "traits", "main", "action", "points", "pre_bonus", "extras_used")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    BONUS_PENDING_FIELD_NUMBER: _ClassVar[int]
    TRAITS_FIELD_NUMBER: _ClassVar[int]
    MAIN_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    PRE_BONUS_FIELD_NUMBER: _ClassVar[int]
    EXTRAS_USED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    die: str
    row: str
    slot: int
    strength: int
    bonus_pending: bool
    traits: _containers.RepeatedScalarFieldContainer[str]
    main: str
    action: str
    points: int
    pre_bonus: int
    extras_used: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., die: _Optional[str] = ..., row: _Optional[str] = ..., slot: _Optional[int] = ..., strength: _Optional[int] = ..., bonus_pending: _Optional[bool] = ..., traits: _Optional[_Iterable[str]] = ..., main: _Optional[str] = ..., action: _Optional[str] = ..., points: _Optional[int] = ..., pre_bonus: _Optional[int] = ..., extras_used: _Optional[_Iterable[str]] = ...) -> None: ...

class MinosChoice(_message.Message):
    __slots__ = ("op", "n", "detail", "region")
    OP_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    op: str
    n: int
    detail: str
    region: int
    def __init__(self, op: _Optional[str] = ..., n: _Optional[int] = ..., detail: _Optional[str] = ..., region: _Optional[int] = ...) -> None: ...

class MinosWildIntent(_message.Message):
    __slots__ = ("die", "action")
    DIE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    die: str
    action: str
    def __init__(self, die: _Optional[str] = ..., action: _Optional[str] = ...) -> None: ...

class MinosBot(_message.Message):
    __slots__ = ("vp", "vp_parts", "supply", "pieces_left", "ships", "face_down_cards", "face_up_cards", "population_space", "start_region", "drawn_cards", "deck_size", "deck_top_back", "wild_intents", "sea_peoples_defeated")
    class VpPartsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class PiecesLeftEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ShipsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    VP_FIELD_NUMBER: _ClassVar[int]
    VP_PARTS_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    PIECES_LEFT_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_CARDS_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_CARDS_FIELD_NUMBER: _ClassVar[int]
    POPULATION_SPACE_FIELD_NUMBER: _ClassVar[int]
    START_REGION_FIELD_NUMBER: _ClassVar[int]
    DRAWN_CARDS_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DECK_TOP_BACK_FIELD_NUMBER: _ClassVar[int]
    WILD_INTENTS_FIELD_NUMBER: _ClassVar[int]
    SEA_PEOPLES_DEFEATED_FIELD_NUMBER: _ClassVar[int]
    vp: int
    vp_parts: _containers.ScalarMap[str, int]
    supply: int
    pieces_left: _containers.ScalarMap[str, int]
    ships: _containers.ScalarMap[str, int]
    face_down_cards: _containers.RepeatedScalarFieldContainer[str]
    face_up_cards: _containers.RepeatedScalarFieldContainer[str]
    population_space: int
    start_region: int
    drawn_cards: _containers.RepeatedScalarFieldContainer[str]
    deck_size: int
    deck_top_back: _containers.RepeatedScalarFieldContainer[str]
    wild_intents: _containers.RepeatedCompositeFieldContainer[MinosWildIntent]
    sea_peoples_defeated: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, vp: _Optional[int] = ..., vp_parts: _Optional[_Mapping[str, int]] = ..., supply: _Optional[int] = ..., pieces_left: _Optional[_Mapping[str, int]] = ..., ships: _Optional[_Mapping[str, int]] = ..., face_down_cards: _Optional[_Iterable[str]] = ..., face_up_cards: _Optional[_Iterable[str]] = ..., population_space: _Optional[int] = ..., start_region: _Optional[int] = ..., drawn_cards: _Optional[_Iterable[str]] = ..., deck_size: _Optional[int] = ..., deck_top_back: _Optional[_Iterable[str]] = ..., wild_intents: _Optional[_Iterable[_Union[MinosWildIntent, _Mapping]]] = ..., sea_peoples_defeated: _Optional[_Iterable[str]] = ...) -> None: ...

class MinosHidden(_message.Message):
    __slots__ = ("deck_i", "deck_ii", "discard_i", "discard_ii", "goods_pile", "bot_deck")
    DECK_I_FIELD_NUMBER: _ClassVar[int]
    DECK_II_FIELD_NUMBER: _ClassVar[int]
    DISCARD_I_FIELD_NUMBER: _ClassVar[int]
    DISCARD_II_FIELD_NUMBER: _ClassVar[int]
    GOODS_PILE_FIELD_NUMBER: _ClassVar[int]
    BOT_DECK_FIELD_NUMBER: _ClassVar[int]
    deck_i: _containers.RepeatedScalarFieldContainer[str]
    deck_ii: _containers.RepeatedScalarFieldContainer[str]
    discard_i: _containers.RepeatedScalarFieldContainer[str]
    discard_ii: _containers.RepeatedScalarFieldContainer[str]
    goods_pile: _containers.RepeatedScalarFieldContainer[str]
    bot_deck: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, deck_i: _Optional[_Iterable[str]] = ..., deck_ii: _Optional[_Iterable[str]] = ..., discard_i: _Optional[_Iterable[str]] = ..., discard_ii: _Optional[_Iterable[str]] = ..., goods_pile: _Optional[_Iterable[str]] = ..., bot_deck: _Optional[_Iterable[str]] = ...) -> None: ...

class MinosObservation(_message.Message):
    __slots__ = ("seat", "players", "solo", "round", "era", "phase", "decision", "current_player", "first_player", "turn_order", "dice", "offer", "deck_i", "deck_ii", "discard_i", "discard_ii", "goods_stacks", "goods_pile", "vases", "bonus_action", "trade_tiles", "regions", "player_states", "available_starting_cards", "available_abilities", "turn", "choice", "combat_region", "bot", "hidden", "ranking", "solo_won")
    class GoodsStacksEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SOLO_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ERA_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TURN_ORDER_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    DECK_I_FIELD_NUMBER: _ClassVar[int]
    DECK_II_FIELD_NUMBER: _ClassVar[int]
    DISCARD_I_FIELD_NUMBER: _ClassVar[int]
    DISCARD_II_FIELD_NUMBER: _ClassVar[int]
    GOODS_STACKS_FIELD_NUMBER: _ClassVar[int]
    GOODS_PILE_FIELD_NUMBER: _ClassVar[int]
    VASES_FIELD_NUMBER: _ClassVar[int]
    BONUS_ACTION_FIELD_NUMBER: _ClassVar[int]
    TRADE_TILES_FIELD_NUMBER: _ClassVar[int]
    REGIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_STATES_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_STARTING_CARDS_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_ABILITIES_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    CHOICE_FIELD_NUMBER: _ClassVar[int]
    COMBAT_REGION_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    SOLO_WON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    solo: bool
    round: int
    era: str
    phase: str
    decision: str
    current_player: int
    first_player: int
    turn_order: _containers.RepeatedScalarFieldContainer[int]
    dice: _containers.RepeatedCompositeFieldContainer[MinosDie]
    offer: _containers.RepeatedScalarFieldContainer[str]
    deck_i: int
    deck_ii: int
    discard_i: int
    discard_ii: int
    goods_stacks: _containers.ScalarMap[str, int]
    goods_pile: int
    vases: _containers.RepeatedCompositeFieldContainer[MinosVase]
    bonus_action: str
    trade_tiles: _containers.RepeatedScalarFieldContainer[str]
    regions: _containers.RepeatedCompositeFieldContainer[MinosRegion]
    player_states: _containers.RepeatedCompositeFieldContainer[MinosPlayer]
    available_starting_cards: _containers.RepeatedScalarFieldContainer[str]
    available_abilities: _containers.RepeatedScalarFieldContainer[str]
    turn: MinosTurn
    choice: MinosChoice
    combat_region: int
    bot: MinosBot
    hidden: MinosHidden
    ranking: _containers.RepeatedScalarFieldContainer[int]
    solo_won: bool
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., solo: _Optional[bool] = ..., round: _Optional[int] = ..., era: _Optional[str] = ..., phase: _Optional[str] = ..., decision: _Optional[str] = ..., current_player: _Optional[int] = ..., first_player: _Optional[int] = ..., turn_order: _Optional[_Iterable[int]] = ..., dice: _Optional[_Iterable[_Union[MinosDie, _Mapping]]] = ..., offer: _Optional[_Iterable[str]] = ..., deck_i: _Optional[int] = ..., deck_ii: _Optional[int] = ..., discard_i: _Optional[int] = ..., discard_ii: _Optional[int] = ..., goods_stacks: _Optional[_Mapping[str, int]] = ..., goods_pile: _Optional[int] = ..., vases: _Optional[_Iterable[_Union[MinosVase, _Mapping]]] = ..., bonus_action: _Optional[str] = ..., trade_tiles: _Optional[_Iterable[str]] = ..., regions: _Optional[_Iterable[_Union[MinosRegion, _Mapping]]] = ..., player_states: _Optional[_Iterable[_Union[MinosPlayer, _Mapping]]] = ..., available_starting_cards: _Optional[_Iterable[str]] = ..., available_abilities: _Optional[_Iterable[str]] = ..., turn: _Optional[_Union[MinosTurn, _Mapping]] = ..., choice: _Optional[_Union[MinosChoice, _Mapping]] = ..., combat_region: _Optional[int] = ..., bot: _Optional[_Union[MinosBot, _Mapping]] = ..., hidden: _Optional[_Union[MinosHidden, _Mapping]] = ..., ranking: _Optional[_Iterable[int]] = ..., solo_won: _Optional[bool] = ...) -> None: ...
