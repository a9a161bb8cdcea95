"""One notebook run, in a process of its own: ``python -m stb_core.report.run <job.json>``.

The build driver (:mod:`stb_core.report.build`) starts one such process per notebook, in a new process group, so
that stopping a build stops its kernels at once (the group is signalled) and a build that dies takes its runs
with it (the process asks the kernel to end it with its parent: ``PR_SET_PDEATHSIG``). The job file gives the
notebook, its parameters and the staging folder; the process writes the executed notebook and the run's tables
and figures there, the kernel's chatter to ``kernel.log``, and on failure one line to ``error.txt`` (exit 1).
Kernel connection files go to the staging folder too (``JUPYTER_RUNTIME_DIR``), so nothing is left in the
system's temporary folder when a run is stopped.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

from .paths import NOTEBOOK_DIR


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Ask Linux to send ``sig`` to this process when its parent dies (a no-op elsewhere)."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, sig)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def skip_the_iri_grammar() -> None:
    """Start notebook tools (papermill, nbformat, nbconvert) in a second less: nbformat's validator imports
    jsonschema's format checkers, and those import ``rfc3987_syntax`` when it is installed (JupyterLab's event
    schemas bring it), which compiles an IRI grammar at import -- 0.9 s in every notebook run. No notebook schema
    checks an IRI, so the build's processes tell Python the module is absent (jsonschema then leaves those two
    formats unchecked). Call it before the first import of any of those tools; the kernels are not affected."""
    sys.modules.setdefault("rfc3987_syntax", None)


def kernel_manager(log: Path, env: dict):
    """A kernel manager whose kernel writes its own chatter (TCP warnings, shutdown interrupts) to ``log``
    and gets ``env`` added to its environment."""
    from jupyter_client.manager import AsyncKernelManager

    class QuietKernelManager(AsyncKernelManager):
        async def _async_launch_kernel(self, kernel_cmd, **kw):
            handle = open(log, "ab")  # noqa: SIM115 -- kept open for the kernel's lifetime
            kw["stdout"] = kw["stderr"] = handle
            kw["env"] = {**kw.get("env", os.environ), **env}
            try:
                return await super()._async_launch_kernel(kernel_cmd, **kw)
            finally:
                handle.close()  # the kernel process has its own copy

    return QuietKernelManager


def execute(job: dict) -> int:
    """Run the notebook of ``job`` into its folder; 0 on success, 1 (with ``error.txt``) on failure."""
    import papermill

    folder = Path(job["folder"])
    kernel_log = folder / "kernel.log"
    env = {"STB_OUTPUT_ROOT": str(folder / "out"), "STB_PROGRESS_FILE": str(folder / "progress.txt"),
           "MPLBACKEND": "agg", "JUPYTER_RUNTIME_DIR": str(folder / "runtime")}
    try:
        papermill.execute_notebook(
            str(NOTEBOOK_DIR / f"{job['stem']}.ipynb"), str(folder / "executed.ipynb"), parameters=job["parameters"],
            kernel_name="python3", cwd=str(NOTEBOOK_DIR), progress_bar=False, log_output=False,
            kernel_manager_class=kernel_manager(kernel_log, env),
        )
    except papermill.PapermillExecutionError as error:
        first = error.evalue.splitlines()[0] if error.evalue else ""
        (folder / "error.txt").write_text(f"{job['run']} failed in cell {error.exec_count}: {error.ename}: {first}")
        return 1
    except RuntimeError as error:  # the kernel died or would not start: show what it said
        chatter = kernel_log.read_text(errors="replace")[-2000:] if kernel_log.exists() else ""
        (folder / "error.txt").write_text(f"{job['run']}: the kernel failed: {error}\n{chatter}")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    die_with_parent()
    skip_the_iri_grammar()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwind: papermill shuts its kernel down
    job = json.loads(Path((argv or sys.argv[1:])[0]).read_text(encoding="utf-8"))
    os.environ["JUPYTER_RUNTIME_DIR"] = str(Path(job["folder"]) / "runtime")
    return execute(job)


if __name__ == "__main__":
    sys.exit(main())
