"""The play loop, driven with scripted input."""

from nimbers.games.grundy import octal_game
from nimbers.games.play import HeapPlay, NimPlay, play


def scripted(lines):
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def test_human_cannot_beat_perfect_play_from_a_losing_start():
    out = []
    # 1 2 3 is lost for the mover: whatever the human does, the computer wins
    result = play(NimPlay(), [1, 2, 3], read=scripted(["2 3", "1 1", "0 1"] + ["0 1"] * 5),
                  write=out.append)
    assert result == "computer" and out[-1] == "the computer wins."


def test_human_wins_with_the_winning_moves():
    from nimbers.games.nim import winning_moves
    out = []

    def perfect(prompt):
        shown = [line for line in out if line.startswith("piles:")][-1]
        piles = [int(w.split(":")[1]) for w in shown.split()[1:]]
        m = winning_moves(piles)[0]
        return f"{m.pile} {m.take}"

    assert play(NimPlay(), [3, 5, 7], read=perfect, write=out.append) == "human"
    assert out[-1] == "you win!"


def test_illegal_moves_are_explained_and_asked_again():
    out = []
    result = play(NimPlay(), [1], read=scripted(["x", "1 1", "0 5", "0 0", "0", "0 1"]),
                  write=out.append)
    illegal = [line for line in out if line.startswith("illegal move")]
    assert len(illegal) == 5 and result == "human"


def test_quit_and_end_of_input():
    out = []
    assert play(NimPlay(), [3, 4], read=scripted(["q"]), write=out.append) == "quit"
    assert out[-1] == "bye"
    assert play(NimPlay(), [3, 4], read=scripted([]), write=out.append) == "quit"

    def interrupt(prompt):
        raise KeyboardInterrupt
    assert play(NimPlay(), [3, 4], read=interrupt, write=out.append) == "quit"


def test_misere_and_computer_first():
    out = []
    result = play(NimPlay(misere=True), [1, 1, 1], first="computer",
                  read=scripted(["1 1"]), write=out.append)
    # the computer must take a stone, the human takes one, the computer takes the last: loses
    assert result == "human"
    assert any("misère" in line for line in out)


def test_kayles_play():
    out = []
    game = HeapPlay(octal_game("0.77"))
    # a heap of 4 (g = 1) is won for the computer, which moves first: it must win
    result = play(game, [4], first="computer", read=scripted(["0 1", "0 1 1", "1 1", "2 1"]),
                  write=out.append)
    assert result == "computer"
    assert out[0].startswith("0.77")


def test_cli_play_with_stdin():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "nimbers", "play", "nim", "1", "2"],
                       input="1 1\n1 1\n", capture_output=True, text=True)
    assert r.returncode == 0 and "you win!" in r.stdout
    r = subprocess.run([sys.executable, "-m", "nimbers", "play", "nim", "x"],
                       input="", capture_output=True, text=True)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
