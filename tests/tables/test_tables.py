"""Tables: values against the printed reference tables, the mex construction against the
product, formatting, CSV and pictures."""

import io

import numpy as np
import pytest

from nimbers.tables import (add_table, check_image, format_table, mex_table, mul_table,
                            table_image, to_csv, write_text)
from conftest import DATA
from oracle import fermat_mul, load_table, mex_mul_table


def test_against_reference_tables():
    assert mul_table(16).tolist() == load_table(DATA / "nim_mul_16x16.txt")
    assert add_table(16).tolist() == load_table(DATA / "nim_add_16x16.txt")


def test_shapes_and_dtype():
    for n in (0, 1, 5, 100):
        for t in (mul_table(n), add_table(n)):
            assert t.shape == (n, n) and t.dtype == np.uint64


def test_big_table_against_oracle():
    t = mul_table(4096)
    rng = np.random.default_rng(0)
    for a, b in rng.integers(0, 4096, (200, 2)):
        assert int(t[a, b]) == fermat_mul(int(a), int(b))


def test_mex_table_is_the_multiplication_table():
    assert mex_table(64).tolist() == mul_table(64).tolist()


def test_mex_table_against_the_plain_definition():
    assert mex_table(12).tolist() == mex_mul_table(12)


def test_format_table_matches_reference_layout():
    text = format_table(mul_table(16))
    lines = text.splitlines()
    assert lines[1].startswith("|⊗ |") and lines[1].split("|")[2].split() == [str(i) for i in range(16)]
    rows = [line for line in lines if line.startswith("|") and not line.startswith("|⊗")]
    parsed = [[int(x) for x in r.split("|")[2].split()] for r in rows]
    assert parsed == load_table(DATA / "nim_mul_16x16.txt")
    assert rows[15].split("|")[1] == "15"
    widths = {len(r) for r in rows}
    assert len(widths) == 1  # right-aligned columns: every row as wide


def test_csv_round_trip():
    text = to_csv(mul_table(16))
    lines = text.splitlines()
    assert lines[0] == "mul," + ",".join(str(i) for i in range(16))
    body = [[int(x) for x in line.split(",")[1:]] for line in lines[1:]]
    assert body == mul_table(16).tolist()


def test_png_written_and_readable(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    path = tmp_path / "t.png"
    table_image(mul_table(1024), path)
    with Image.open(path) as im:
        assert im.size == (1024, 1024) and im.format == "PNG"
        pixels = np.asarray(im)
    t = mul_table(1024)
    # equal values share a colour
    assert (pixels[3, 5] == pixels[5, 3]).all()
    assert (pixels[0, 0] == pixels[0, 100]).all()  # both 0
    assert t[0, 0] == t[0, 100] == 0


def test_bad_sizes():
    with pytest.raises(ValueError):
        mul_table(-1)
    with pytest.raises(TypeError):
        mul_table(2.5)
    with pytest.raises(ValueError, match="too large"):
        mul_table(10**6)
    with pytest.raises(ValueError):
        table_image(np.zeros((0, 0)), "x.png")
    with pytest.raises(ValueError):
        format_table(np.zeros(3))


def test_progress_bar_only_on_terminals():
    import io
    from nimbers._progress import Progress
    quiet = io.StringIO()
    with Progress(100, "work", stream=quiet) as bar:  # a StringIO is not a terminal
        bar.update(100)
    assert quiet.getvalue() == ""
    loud = io.StringIO()
    with Progress(100, "work", enabled=True, stream=loud) as bar:
        bar.update(50)
        bar.update(50)
    assert "work: [" in loud.getvalue() and "100.0%" in loud.getvalue()
    assert mul_table(600, progress=False).tolist() == mul_table(600).tolist()


@pytest.mark.parametrize("n", [0, 1, 5, 256, 257, 300])
@pytest.mark.parametrize("op,sign,build", [("mul", "⊗", mul_table), ("add", "⊕", add_table)])
def test_streamed_text_is_format_table(n, op, sign, build):
    out = io.StringIO()
    write_text(out, n, op=op)
    assert out.getvalue() == format_table(build(n), op=sign) + "\n"


def test_big_tables_and_pictures_are_refused_before_allocating():
    with pytest.raises(ValueError, match="memory cap.*NIMBERS_MEMORY_LIMIT"):
        mul_table(20000, memory_limit="1G")  # 3 GiB of uint64
    with pytest.raises(ValueError, match="picture"):
        table_image(mul_table(64), scale=64, memory_limit="1M")
    with pytest.raises(ValueError, match="picture of a 16384 x 16384 table"):
        check_image(16384, 16384, table_bytes=8 * 16384**2, memory_limit="2G")
    check_image(64, 64, scale=8, memory_limit="2G")  # under the cap: nothing to say


def test_picture_colours_follow_the_values():
    pytest.importorskip("PIL")
    t = mul_table(256)
    pixels = np.asarray(table_image(t))
    flat = pixels.reshape(-1, 3)
    # equal values, equal colours; the smallest and largest value the ends of the scale
    for v in (0, 1, 77, 255):
        assert len({tuple(p) for p in flat[t.ravel() == v]}) == 1
    assert tuple(flat[t.ravel() == 0][0]) == (13, 13, 64)
    assert tuple(flat[t.ravel() == 255][0]) == (217, 38, 26)
