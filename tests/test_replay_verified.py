"""Issue 12, item 2: ``d20combat replay LOG`` verifies, it does not trust. ``run --log`` writes the start's dice
and a write record (action, answers, dice) before each action's events; the replay re-runs them through the
engine and refuses a log whose events the engine would not have produced, naming its first bad event and line."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from d20combat.controllers import TacticalAI, play
from d20combat.dice import SeededDice, TypedDice
from d20combat.encounter.engine import Encounter
from d20combat.encounter.verify import LogError
from d20combat.errors import D20CombatError
from d20combat.replay import encounter_from_log, log_text, read_log
from d20combat.scenario import load_battle

EXAMPLES = ["goblin-ambush", "off-guard-ambush", "skill-duel", "ogre-charge"]


def _battle(example: str, seed: int = 4) -> Encounter:
    return play(Encounter(load_battle(f"examples/{example}.yaml"), SeededDice(seed)), TacticalAI())


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "battle.log"
    path.write_text(text, encoding="utf-8")
    return path


def _lines(enc: Encounter) -> list[dict[str, object]]:
    return [json.loads(line) for line in log_text(enc).splitlines()]


def _save(tmp_path: Path, lines: list[dict[str, object]]) -> Path:
    return _write(tmp_path, "".join(json.dumps(x) + "\n" for x in lines))


@pytest.mark.parametrize("example", EXAMPLES)
def test_an_honest_log_replays_to_the_same_encounter(tmp_path: Path, example: str) -> None:
    """Issue 12: the log of a whole AI battle verifies and rebuilds the same state and the same log, byte for
    byte — and the rebuilt encounter writes the same log again."""
    enc = _battle(example)
    text = log_text(enc)
    first = json.loads(text.splitlines()[0])
    assert first == {"d20combat_log": 2, "start_dice": [list(f) for f in enc.start_faces]}
    assert text.count('{"write":') == len(enc.writes) > 0
    cpu = time.process_time()
    again = encounter_from_log(read_log(_write(tmp_path, text)))
    assert time.process_time() - cpu < 1.0
    assert again.state == enc.state
    assert log_text(again) == text


def test_a_log_that_moves_a_creature_off_the_map_is_refused(tmp_path: Path) -> None:
    """Issue 12: a replay log moving a creature to (9999, 9999) used to exit 0; it is refused at that event."""
    lines = _lines(_battle("goblin-ambush"))
    n = next(n for n, x in enumerate(lines) if x.get("kind") == "moved")
    moved = lines[n]
    assert isinstance(moved["path"], list)
    moved["path"][-1] = [9999, 9999]
    index = sum(1 for x in lines[:n] if "kind" in x)
    with pytest.raises(LogError) as info:
        encounter_from_log(read_log(_save(tmp_path, lines)))
    assert info.value.index == index
    message = str(info.value)
    assert message.startswith(f"events[{index}] (moved): the engine would have produced moved(")
    assert "[9999, 9999]" in message and f"(line {n + 1})" in message
    assert isinstance(info.value, ValueError) and isinstance(info.value, D20CombatError)


@pytest.mark.parametrize(("what", "change", "needle"), [
    ("a damage number", lambda x: x.get("kind") == "damaged" and (x.update(amount=99) or True), "not damaged("),
    ("a kind", lambda x: x.get("kind") == "damaged" and (x.update(kind="healed") or True),
     "(healed): the engine would"),
    ("a d20 face", lambda x: "write" in x and _bump_d20(x), "the engine would have produced"),
    ("an action", lambda x: "write" in x and x["write"]["action"]["kind"] == "move" and
     (x["write"].update(action={"kind": "step", "to": [0, 0]}) or True), "the engine refuses it here"),
    ("an action kind", lambda x: "write" in x and (x["write"]["action"].update(kind="teleport") or True),
     "unknown action kind 'teleport'"),
    ("a face out of range", lambda x: "write" in x and bool(x["write"]["dice"]) and
     (x["write"].update(dice=[[20, 40]]) or True), "a d20 cannot show 40"),
])
def test_a_tampered_log_is_refused_by_its_first_bad_event(tmp_path: Path, what: str, change: object,
                                                          needle: str) -> None:
    """Issue 12: the first changed value anywhere — an event, a die, an action — is refused, fast."""
    lines = _lines(_battle("goblin-ambush"))
    assert callable(change)
    n = next(n for n, x in enumerate(lines) if change(x))
    cpu = time.process_time()
    with pytest.raises(LogError) as info:
        encounter_from_log(read_log(_save(tmp_path, lines)))
    assert time.process_time() - cpu < 1.0
    assert needle in str(info.value), str(info.value)
    events_before = sum(1 for x in lines[:n] if "kind" in x)
    assert info.value.index >= events_before  # nothing before the change is blamed
    if "kind" in lines[n]:
        assert info.value.index == events_before


def _bump_d20(record: dict[str, object]) -> bool:
    write = record["write"]
    assert isinstance(write, dict)
    for die in write["dice"]:
        if die[0] == 20:
            die[1] = die[1] % 20 + 1
            return True
    return False


def test_extra_deleted_and_reordered_events_are_refused(tmp_path: Path) -> None:
    """Issue 12: one event too many, one deleted, or the log cut short: each named by index."""
    lines = _lines(_battle("skill-duel"))
    with pytest.raises(LogError, match=r"an extra event"):
        encounter_from_log(read_log(_save(tmp_path, [*lines, lines[-1]])))
    n = next(n for n, x in enumerate(lines) if x.get("kind") == "attack_resolved")
    with pytest.raises(LogError, match=r"the engine would have produced attack_resolved"):
        encounter_from_log(read_log(_save(tmp_path, lines[:n] + lines[n + 1:])))
    with pytest.raises(LogError, match=r"missing: the engine would have produced .* but the log ends"):
        encounter_from_log(read_log(_save(tmp_path, lines[:n])))


def test_a_log_of_events_alone_is_refused(tmp_path: Path) -> None:
    """Issue 12: the old format (events only, no writes) has nothing to verify."""
    enc = _battle("ogre-charge")
    path = _write(tmp_path, "".join(e.to_json() + "\n" for e in enc.log))
    with pytest.raises(LogError, match="this log has no actions to verify; record it again with run --log"):
        encounter_from_log(read_log(path))


@pytest.mark.parametrize(("text", "needle"), [
    ("", "an event log starts with encounter_started"),
    ('{"d20combat_log": 3, "start_dice": []}\n', "line 1: not a format 2 log header"),
    ('{"d20combat_log": 2, "start_dice": "many"}\n{"kind": "x"}\n', "start_dice: a list of [sides, face] pairs"),
    ('{"d20combat_log": 2, "start_dice": []}\n[1, 2]\n', "line 2: not a header, write or event"),
    ('{"d20combat_log": 2, "start_dice": []}\n{"x": 1}\n', "line 2: events[0]: not a header, write or event"),
    ('{"d20combat_log": 2, "start_dice": []}\n{"write": {}, "y": 2}\n', "line 2: a write record is"),
    ('{"d20combat_log": 2, "start_dice": []}\nnot json\n', "line 2: not JSON"),
    ('{"d20combat_log": 2, "start_dice": []}\n{"kind": "encounter_started", "scenario": {"map": 1}}\n',
     "events[0] (encounter_started): its scenario cannot be played"),
])
def test_a_malformed_log_is_refused_with_its_line(tmp_path: Path, text: str, needle: str) -> None:
    with pytest.raises(LogError) as info:
        encounter_from_log(read_log(_write(tmp_path, text)))
    assert needle in str(info.value)


def test_dice_typed_at_the_table_and_an_undo_verify_too(tmp_path: Path) -> None:
    """Issue 12: the header records the start's faces, not a seed, so a battle with typed dice verifies; an undone
    action leaves the log with its write (undo pops it, redo puts it back)."""
    faces = iter([17, 3, 12, 5, 9, 20, 1, 14] * 200)
    dice = TypedDice(lambda sides, purpose: min(next(faces), sides))
    enc = Encounter(load_battle("examples/odds-duel.yaml"), dice)
    enc.start()
    ai = TacticalAI()
    for _ in range(12):
        if enc.state.ended:
            break
        if enc.pending is not None:
            enc.respond(ai.react(enc, enc.pending.prompt))
        else:
            enc.act(ai.choose(enc))
    writes = list(enc.writes)
    assert enc.undo() and enc.writes == writes[:-1]
    undone = log_text(enc)
    assert encounter_from_log(read_log(_write(tmp_path, undone))).state == enc.state
    assert enc.redo() and enc.writes == writes
    assert encounter_from_log(read_log(_write(tmp_path, log_text(enc)))).state == enc.state


def test_a_huge_log_is_refused_while_it_is_read(tmp_path: Path) -> None:
    """Issue 12: more events than a log may hold are refused on reading, before anything is replayed."""
    header = '{"d20combat_log": 2, "start_dice": []}\n'
    path = _write(tmp_path, header + '{"kind": "note"}\n' * 200_001)
    cpu = time.process_time()
    with pytest.raises(LogError, match="more than 200,000 events"):
        read_log(path)
    assert time.process_time() - cpu < 2.0
