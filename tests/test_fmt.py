"""helpers.fmt.thousands: how the notebooks print big whole numbers for Spanish readers."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from helpers.fmt import thousands


@pytest.mark.parametrize("number, text", [(2_099_712, "2 099 712"), (1536, "1 536"), (999, "999"), (0, "0"),
                                          (-12_000, "-12 000"), (np.int64(124_439_808), "124 439 808"),
                                          (torch.tensor(174_604_259_328), "174 604 259 328")])
def test_groups_thousands_with_spaces(number, text):
    assert thousands(number) == text


@pytest.mark.parametrize("number", [1.5, "2048", True, None, torch.tensor([1, 2]), torch.tensor(2.0), np.float32(3)])
def test_refuses_what_is_not_a_whole_number(number):
    with pytest.raises(TypeError, match=r"thousands espera en number un número entero"):
        thousands(number)
