"""A number of thousands of digits in config.toml is told by its size in every problem, as a positive
one is, never written out whole (the message goes to the terminal, hooks.log and the hooks' snapshot)."""

from lazy_harness.config.validate import parse_file

DIGITS = "9" * 3000


def test_a_huge_negative_number_is_told_by_its_sign_and_digits(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(f"[recall]\nmax_chars = -{DIGITS}\nmin_similarity = -{DIGITS}\n"
                    f"[compound_loop]\nmodel = -{DIGITS}\n")
    _, errors, _ = parse_file(str(path))
    assert errors == [
        f"{path}:2: recall.max_chars: expected an integer >= 0, got a negative integer of 3000 digits",
        f"{path}:3: recall.min_similarity: expected a number between 0 and 1, got a negative integer of 3000 digits",
        f"{path}:5: compound_loop.model: expected a string, got a negative integer of 3000 digits",
    ]


def test_a_negative_number_of_ordinary_size_is_written_as_it_is(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[recall]\nmax_chars = -5\nmin_similarity = 1.5\n[compound_loop]\nmax_attempts = 0\n")
    _, errors, _ = parse_file(str(path))
    assert errors == [
        f"{path}:2: recall.max_chars: expected an integer >= 0, got -5",
        f"{path}:3: recall.min_similarity: expected a number between 0 and 1, got 1.5",
        f"{path}:5: compound_loop.max_attempts: expected an integer >= 1, got 0",
    ]
