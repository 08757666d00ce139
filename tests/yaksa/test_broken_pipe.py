"""A reader that goes away (``yaksa ask … | head``) ends the command quietly: no traceback, exit 0 (yaksa/cli.py)."""

import subprocess
import sys

# a command that writes more than a pipe holds, run through the real `main`, its stdout read by a reader that stops
SCRIPT = """
import sys
from yaksa import cli
from yaksa.commands import search

def run(args):
    for n in range(200000):
        print("출처 줄", n)

search.run = run
sys.exit(cli.main(["search", "게보린"]))
"""


def test_a_reader_that_stops_reading_ends_the_command_without_a_traceback():
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert first.decode().startswith("출처 줄")
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
