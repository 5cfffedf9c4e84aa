"""The gallery's order within each chapter: the order in which the course teaches
(see docs/course.rst), not the alphabet.  ``CourseOrder`` is sphinx-gallery's
``within_subsection_order``; tests/test_examples.py checks that every example is
listed here."""

from pathlib import Path

COURSE_ORDER = {
    "linear": [
        "plot_one_vs_all_fusion.py",  # 4.1 one-vs-rest
        "plot_all_pairs_votes.py",  # pairwise
        "plot_update_rules.py",  # the multi-class linear machine
        "plot_perceptron_animation.py",
        "plot_three_sectors.py",
        "plot_output_codes.py",
        "plot_svm_margins.py",
        "plot_softmax_probabilities.py",  # 4.2
    ],
    "discriminant": [
        "plot_fisher_wine.py",  # 4.1 multiclass Fisher
        "plot_fisher_digits.py",
        "plot_qda_boundaries.py",  # 4.3
        "plot_lda_vs_qda.py",
    ],
    "piecewise": [
        "plot_minimum_distance.py",  # 4.4
        "plot_rings_prototypes.py",
        "plot_piecewise_linear.py",
        "plot_piecewise_xor_animation.py",
    ],
    "neighbors": [
        "plot_unit_balls.py",  # 4.5.1 distances
        "plot_knn_k.py",
        "plot_knn_rejection.py",
        "plot_search_explained.py",  # 4.5.3 branch and bound
        "plot_branch_and_bound.py",  # (and 4.5.2, the bounds)
        "plot_bnb_dimension.py",
        "plot_edit_condense.py",  # 4.5.3 editing and condensing
        "plot_condensing_animation.py",
        "plot_edited_error.py",
        "plot_choose_k.py",  # 4.5.4 discussion
        "plot_sharded_knn.py",  # past one process (Dask)
    ],
    "comparison": [
        "plot_compare_breast_cancer.py",
        "plot_diagnosis_evaluation.py",
    ],
    # the exercise pages (exercises/), one per chapter
    "exercises": [
        "exercise_linear.py",
        "exercise_discriminant.py",
        "exercise_piecewise.py",
        "exercise_neighbors.py",
    ],
}


class CourseOrder:
    """Sort key of the examples of one gallery folder: their place in
    `COURSE_ORDER` (an example not listed there comes last, by name)."""

    def __init__(self, src_dir):
        self.order = COURSE_ORDER.get(Path(src_dir).name, [])

    def __call__(self, filename):
        name = str(filename)
        place = self.order.index(name) if name in self.order else len(self.order)
        return (place, name)


def course_place(path):
    """Sort key of a chapter page's mini-gallery (``minigallery_sort_order``), given an
    example's path: its chapter folder's place, then its place in the chapter."""
    path = Path(path)
    folders = list(COURSE_ORDER)
    folder = path.parent.name
    chapter = folders.index(folder) if folder in folders else len(folders)
    return (chapter, CourseOrder(folder)(path.name))
