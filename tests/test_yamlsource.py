"""Reading YAML with positions: what the error messages stand on."""

from spellpress.core.yamlsource import read


def write(tmp_path, text, name="f.yaml"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def test_positions_of_values_and_keys(tmp_path):
    doc, problems = read(write(tmp_path, "a:\n  - x\n  - {b: 2}\n"))
    assert problems == []
    assert doc.data == {"a": ["x", {"b": 2}]}
    assert doc.position(("a", 1, "b")) == (3, 9)
    assert doc.position(("a", 1, "b"), key=True) == (3, 6)
    assert doc.position(("a", 1, "missing")) == (3, 5)  # falls back to the parent


def test_merge_keys_fill_in_and_explicit_keys_win(tmp_path):
    doc, problems = read(write(tmp_path, "base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\n"))
    assert problems == []
    assert doc.data["c"] == {"x": 1, "y": 3}
    assert doc.position(("c", "y")) == (4, 6)


def test_byte_order_mark_and_crlf_are_fine(tmp_path):
    doc, problems = read(write(tmp_path, b"\xef\xbb\xbfa: 1\r\nb: two\r\n"))
    assert problems == [] and doc.data == {"a": 1, "b": "two"}
    assert doc.position(("b",)) == (2, 4)


def test_block_text_lines_are_known(tmp_path):
    doc, _ = read(write(tmp_path, "t: |\n  one\n  two {{ x }}\n"))
    assert doc.is_block(("t",))
    assert doc.column_of(3, "x }}") == 10


def test_unknown_tag_is_a_problem(tmp_path):
    doc, problems = read(write(tmp_path, "a: !python/object x\n"))
    assert doc is None
    assert [str(p) for p in problems] == [f"{tmp_path / 'f.yaml'}:1:4: a: unknown YAML tag '!python/object'; write a plain value"]


def test_a_huge_file_is_refused_before_parsing(tmp_path):
    doc, problems = read(write(tmp_path, "a: " + "x" * (5 * 1024 * 1024)))
    assert doc is None and "at most" in problems[0].message
