"""
=================================
Condensing: the store as it grows
=================================

Hart's condensing visits the samples one after another and moves into the store
every sample that the 1-NN rule of the current store misclassifies; passes repeat
until one moves nothing.  ``condense(..., return_history=True)`` records which
samples moved, pass by pass and in order, and this animation replays it: the faint
dots are all the samples, the bold ones the store, the shaded regions the 1-NN rule
of the store at that moment.  The first samples stored carve out coarse regions;
later ones only fix the boundary where the classes overlap.  The last pass moves
nothing: every sample is then classified correctly by the store.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.animation import FuncAnimation
from matplotlib.lines import Line2D

from patrec.neighbors import KNeighborsClassifier, condense

rng = np.random.default_rng(1)
X = np.vstack(
    [rng.normal([0, 0], 1.0, size=(200, 2)), rng.normal([2.5, 1], 1.0, size=(200, 2))]
)
y = np.repeat([0, 1], 200)
kept, history = condense(X, y, random_state=0, return_history=True)
stored = history.stored  # every stored sample, in the order it was stored
ends = np.cumsum([len(history.seeds)] + [len(moved) for moved in history.passes])
print(
    f"{len(kept)} of {len(X)} samples stored in {history.n_passes} passes "
    f"(per pass: {[len(moved) for moved in history.passes]})"
)

# %%
# The animation: a frame after every few additions, a pause at the end of a pass.
xs, ys = np.meshgrid(np.linspace(-3.5, 6, 150), np.linspace(-3.5, 4.5, 150))
grid = np.column_stack([xs.ravel(), ys.ravel()])
colours = np.array(["tab:blue", "tab:orange"])
frames = sorted(set(np.linspace(1, len(stored), 40).astype(int)) | set(ends.tolist()))


LEGEND = [
    Line2D(
        [], [], marker="o", ls="", color=colours[0], mec="k", label="class 0, stored"
    ),
    Line2D(
        [], [], marker="o", ls="", color=colours[1], mec="k", label="class 1, stored"
    ),
    Line2D([], [], marker="o", ls="", color="0.6", alpha=0.5, label="not stored"),
    Line2D([], [], marker="o", ls="", mfc="none", mec="k", ms=11, label="just stored"),
]


def draw(n_stored, ax):
    ax.clear()
    store = stored[:n_stored]
    if len(set(y[store])) > 1:
        nn = KNeighborsClassifier(n_neighbors=1).fit(X[store], y[store])
        regions = nn.predict(grid).reshape(xs.shape)
    else:
        regions = np.full(xs.shape, y[store[0]])
    ax.contourf(xs, ys, regions, levels=[-0.5, 0.5, 1.5], colors=colours, alpha=0.25)
    ax.scatter(*X.T, c=colours[y], s=8, alpha=0.25)
    ax.scatter(*X[store].T, c=colours[y[store]], s=30, edgecolor="k", linewidth=0.6)
    ax.scatter(*X[store[-1]], s=160, facecolor="none", edgecolor="k", linewidth=1.5)
    current_pass = int(np.searchsorted(ends, n_stored, side="left"))
    samples = "sample" if n_stored == 1 else "samples"
    ax.set_title(f"pass {max(current_pass, 1)}: {n_stored} {samples} stored")
    ax.set_xlim(-3.5, 6)
    ax.set_ylim(-3.5, 4.5)
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
    ax.legend(handles=LEGEND, loc="lower right", fontsize="small")


fig, ax = plt.subplots(figsize=(6, 5))
animation = FuncAnimation(
    fig, lambda n: draw(n, ax), frames=frames, interval=250, repeat_delay=2000
)

# %%
# The final store: every one of the 400 samples is classified correctly by the
# 1-NN rule of these samples.
still, still_ax = plt.subplots(figsize=(6, 5))
draw(len(stored), still_ax)
still_ax.set_title(
    f"after {history.n_passes} passes: {len(stored)} of {len(X)} samples stored"
)
plt.show()
