"""The notebooks' ipywidgets, thin shells around pure functions: notebook 03's three LayerNorm interactions
(``layernorm``: FourNumbers, GammaBeta, StepByStep, over helpers.layernorm) and notebook 05's sweep explorer
(``explorer``: SweepExplorer, over helpers.sweep.explore), and the prediction questions' answer buttons
(``prediction``: Prediction, over helpers.predictions). ``_image`` draws their figures.

Only basic widgets (Text, FloatSlider, Button, ToggleButtons, Dropdown, HTML, Image, HBox/VBox) and
``observe``, which behave the same on Colab's ipywidgets 7 and JupyterLab 4's ipywidgets 8. Figures are drawn
off-screen (matplotlib's Figure, no pyplot) into an Image widget: an update changes widget state only and
prints nothing into any cell.
"""

from .explorer import SweepExplorer
from .layernorm import FourNumbers, GammaBeta, StepByStep
from .prediction import Prediction

__all__ = ["FourNumbers", "GammaBeta", "Prediction", "StepByStep", "SweepExplorer"]


def __dir__():
    return __all__
