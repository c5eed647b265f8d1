"""Miniature tokens: the made art chosen by what a figure carries, state drawn on the base, labels that
give way to each other on a crowded deployment."""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from game.engine.characters import Character
from game.engine.hexgrid import Hex
from game.maps.loader import load_map
from game.roster import load_roster
from game.session import place_figures
from game.ui import theme
from game.ui.board import Board, LabelWish, place_labels
from game.ui.camera import ZOOM_LEVELS
from game.ui.mapdata import board_data_from_loaded
from game.ui.token_art import TOKEN_DIR, TokenArt, look_for
from game.ui.view import BoardView, TokenView
from game.ui.widgets import TextCache

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
BLUE = (47, 111, 208)


@pytest.fixture(autouse=True)
def display() -> None:
    pygame.display.init()


def character(**fields: object) -> Character:
    return Character.from_dict({"name": "X", **fields}, key="x")


@pytest.mark.parametrize(
    ("fields", "look"),
    [
        ({"weapons": ["Broadsword", "Large Knife"], "shield": "Medium Shield"}, "sword_shield"),
        ({"weapons": ["Broadsword", "Large Knife"]}, "sword"),
        ({"weapons": ["Battle Axe"]}, "axe"),
        ({"weapons": ["Spear or Pike", "Large Knife"]}, "spear"),
        ({"weapons": ["Longbow", "Large Knife"]}, "bow"),
        ({"weapons": ["Large Club"]}, "mace"),
        ({"weapons": ["Large Knife"], "spells": ["Fire Bolt"]}, "caster"),
        ({"weapons": []}, ""),
        ({"weapons": ["Claws and Teeth"], "kind": "carnivore"}, "beast"),
        ({"weapons": ["Claws and Teeth"], "kind": "prey"}, "prey"),
        ({"weapons": ["Claws and Teeth"], "kind": "carnivore", "footprint": 3}, "beast3"),
        ({"weapons": ["Large Club"], "footprint": 3}, "giant3"),
        ({"weapons": ["Claws and Teeth"], "kind": "carnivore", "footprint": 7}, "wyrm7"),
    ],
)
def test_look_follows_what_the_figure_carries_and_is(fields: dict[str, object], look: str) -> None:
    assert look_for(character(**fields)) in ((look,) if look else ("fist",))


def test_every_look_of_the_shipped_rosters_has_its_image() -> None:
    looks = {look_for(ch) for roster in MAPS.glob("*.roster.toml") for ch in load_roster(roster).characters.values()}
    assert {"sword_shield", "bow", "caster", "wyrm7"} <= looks
    for look in [*looks, "base"]:
        assert (TOKEN_DIR / f"{look}.png").is_file(), look


def test_crossbow_and_staff_by_weapon_name() -> None:
    from game.ui.token_art import weapon_look

    assert weapon_look("Heavy Crossbow") == "crossbow"
    assert weapon_look("Quarterstaff") == "staff"
    assert weapon_look("Longbow") == "bow"


def sprite_of(board: Board, t: TokenView) -> pygame.Surface:
    sprite, _ = board.token_sprite(t)
    return sprite


def small_board() -> Board:
    data = board_data_from_loaded(load_map(MAPS / "open_field.tmx"), MAPS / "open_field.tmx")
    return Board(data.layout, data.terrain.width, data.terrain.height, data.source, TextCache(), (0, 0, 800, 600))


def test_made_token_shows_the_figure_not_a_letter() -> None:
    board = small_board()
    letter = sprite_of(board, TokenView("a", "Ann", BLUE, Hex(3, 3), 0))
    made = sprite_of(board, TokenView("a", "Ann", BLUE, Hex(3, 3), 0, look="sword_shield"))
    assert letter.get_size() != made.get_size() or pygame.image.tobytes(letter, "RGBA") != pygame.image.tobytes(
        made, "RGBA"
    )
    # the base carries the side's colour: its rim is blue
    c = made.get_width() // 2
    r = round(board.token_radius())
    rim = made.get_at((c, c - round(r * 0.88)))
    assert rim.b > rim.r + 60


def test_state_changes_the_token() -> None:
    board = small_board()
    base = TokenView("a", "Ann", BLUE, Hex(3, 3), 0, look="spear")
    looks = {
        name: pygame.image.tobytes(sprite_of(board, t), "RGBA")
        for name, t in {
            "standing": base,
            "prone": TokenView("a", "Ann", BLUE, Hex(3, 3), 0, look="spear", posture="prone"),
            "crawling": TokenView("a", "Ann", BLUE, Hex(3, 3), 0, look="spear", posture="crawling"),
            "concentrating": TokenView("a", "Ann", BLUE, Hex(3, 3), 0, look="spear", concentrating=True),
            "held": TokenView("a", "Ann", BLUE, Hex(3, 3), 0, look="spear", held=True),
            "hurt": TokenView("a", "Ann", BLUE, Hex(3, 3), 0, 3, look="spear"),
            "out": TokenView("a", "Ann", BLUE, Hex(3, 3), 0, 5, True, look="spear"),
        }.items()
    }
    assert len(set(looks.values())) == len(looks)


def test_missing_art_falls_back_to_letter_tokens(tmp_path: Path) -> None:
    board = small_board()
    letter = sprite_of(board, TokenView("a", "Ann", BLUE, Hex(3, 3), 0))
    board.art = TokenArt(tmp_path)  # an empty folder: no base, no figures
    board.invalidate()
    fallback = sprite_of(board, TokenView("a", "Ann", BLUE, Hex(3, 3), 0, look="sword"))
    assert pygame.image.tobytes(fallback, "RGBA") == pygame.image.tobytes(letter, "RGBA")


def test_seven_hex_creature_is_one_figure_across_its_footprint() -> None:
    from game.engine.creatures import footprint

    board = small_board()
    centre = Hex(8, 6)
    cells = footprint(centre, 7, 0)
    plain = TokenView("w", "Wyrm", (200, 50, 50), centre, 0, cells=cells)
    art = TokenView("w", "Wyrm", (200, 50, 50), centre, 0, cells=cells, look="wyrm7")
    a, anchor = board.token_sprite(plain)
    b, anchor_b = board.token_sprite(art)
    assert anchor == anchor_b and a.get_size() == b.get_size()
    # the wyrm's wings reach over the outer hexes of its footprint: green and purple where the plain base is dark
    changed = sum(
        1
        for x in range(0, a.get_width(), 4)
        for y in range(0, a.get_height(), 4)
        if a.get_at((x, y)) != b.get_at((x, y))
    )
    assert changed > (a.get_width() // 4) * (a.get_height() // 4) // 5


def test_labels_never_overlap_and_the_squeezed_out_show_on_hover() -> None:
    wishes = [LabelWish(f"t{i}", f"Long Name {i}", "", 100 + i * 4, 100, 60) for i in range(6)]
    font = TextCache()

    def render(text: str) -> pygame.Surface:
        return font.render(text, 12, theme.TEXT)

    placed, hidden = place_labels(wishes, render, render)
    rects = [r for _, r in placed]
    assert all(not a.colliderect(b) for a, b in itertools.combinations(rects, 2))
    assert hidden and len(placed) + len(hidden) == len(wishes)


def forest_road_tokens() -> tuple[Board, list[TokenView]]:
    path = MAPS / "forest_road.tmx"
    loaded = load_map(path)
    roster = load_roster(MAPS / "forest_road.roster.toml")
    placed = place_figures(loaded, roster)
    data = board_data_from_loaded(loaded, path)
    board = Board(data.layout, data.terrain.width, data.terrain.height, data.source, TextCache(), (0, 40, 1000, 650))
    sides = sorted({f["side"] for f in placed})
    tokens = [
        TokenView(
            str(f["id"]),
            str(f["name"]),
            theme.NORMAL.side_colour(f["side"], sides.index(f["side"])),
            Hex(*f["hex"]),
            int(f["facing"]),
            look=look_for(roster.characters[str(f["character"])]),
        )
        for f in placed
    ]
    return board, tokens


def test_label_rectangles_do_not_overlap_on_the_forest_roads_deployment() -> None:
    board, tokens = forest_road_tokens()
    centres = [board.layout.hex_center(t.hex) for t in tokens]
    middle = (sum(x for x, _ in centres) / len(centres), sum(y for _, y in centres) / len(centres))
    checked = 0
    for zi, _ in enumerate(ZOOM_LEVELS):
        board.camera.zoom_index = zi
        board.camera.center_on(*middle)
        ops = board._token_ops_for(BoardView(tokens), ())
        rects = [r for _, r in ops.labels]
        assert all(not a.colliderect(b) for a, b in itertools.combinations(rects, 2)), ZOOM_LEVELS[zi]
        checked += len(rects)
    assert checked > 20  # labels were drawn at the larger zoom levels (at 0.5 and 0.7 names crowd each other)


def test_default_zoom_shows_every_forest_road_name_or_keeps_it_for_hover() -> None:
    board, tokens = forest_road_tokens()
    board.camera.fit()
    view = BoardView(tokens)
    ops = board._token_ops_for(view, ())
    assert len(ops.labels) + len(board._hidden_labels) == len(tokens) or board.token_radius() < 11
    if board._hidden_labels:
        fid = next(iter(board._hidden_labels))
        hex_of = next(t.hex for t in tokens if t.id == fid)
        shown = board.hidden_label_at(BoardView(tokens, hover=hex_of))
        assert shown is not None
