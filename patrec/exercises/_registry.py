"""The exercises, in the course's order, by name: what `check`, `template` and
`grade` look names up in."""

from ._discriminant import FisherLDAExercise, QDAExercise
from ._linear import KeslerExercise, LinearMachineExercise, PerceptronExercise
from ._neighbors import (
    BranchBoundExercise,
    HartCondensingExercise,
    KNNExercise,
    MultieditExercise,
    WilsonEditingExercise,
)
from ._output_codes import OutputCodesExercise
from ._piecewise import MinimumDistanceExercise, PiecewiseLinearExercise

__all__ = ["EXERCISES"]

EXERCISES = {
    exercise.name: exercise
    for exercise in (
        PerceptronExercise(),
        LinearMachineExercise(),
        KeslerExercise(),
        OutputCodesExercise(),
        FisherLDAExercise(),
        QDAExercise(),
        MinimumDistanceExercise(),
        PiecewiseLinearExercise(),
        KNNExercise(),
        BranchBoundExercise(),
        WilsonEditingExercise(),
        MultieditExercise(),
        HartCondensingExercise(),
    )
}
