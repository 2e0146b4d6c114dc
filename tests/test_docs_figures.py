"""Every generated block of the docs holds what its commands print today (tests/docs_figures.py).

When a figure changes on purpose (the generator, a statistic), ``python -m tests.docs_figures
--write`` rewrites the blocks; the diff then shows what changed in the docs.
"""

from __future__ import annotations

import pytest

from tests.docs_figures import Block, every_block, output

BLOCKS = every_block()


def test_the_docs_have_generated_blocks() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize(
    "block", [pytest.param(b, id=b.name, marks=[pytest.mark.slow] if b.slow else []) for b in BLOCKS]
)
def test_generated_block_equals_what_its_commands_print(block: Block) -> None:
    assert block.current == output(block), (
        f"{block.name} is stale: run python -m tests.docs_figures --write and review the diff"
    )
