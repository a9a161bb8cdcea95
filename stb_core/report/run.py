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


PORT_RACE = "Address already in use"
"""What a kernel says when another process took one of the ports its manager picked for it: the manager finds free
ports, closes them and hands them to the kernel, and in between a concurrent process (another build, another kernel)
may bind one (jupyter_client's TCP transport has no lock). The kernel then dies before it runs a cell."""
KERNEL_STARTS = 3
"""How many times a run starts its kernel when the start loses that race."""


def lost_the_port_race(chatter: str) -> bool:
    """Whether the kernel's chatter of one start says it died because a port it was given was taken."""
    return PORT_RACE in chatter


def execute(job: dict) -> int:
    """Run the notebook of ``job`` into its folder; 0 on success, 1 (with ``error.txt``) on failure.

    A kernel that dies at start because its ports were taken is started again (up to :data:`KERNEL_STARTS` times):
    no cell has run, so the second start is the same run. Any other failure is the run's."""
    import papermill

    folder = Path(job["folder"])
    kernel_log = folder / "kernel.log"
    env = {"STB_OUTPUT_ROOT": str(folder / "out"), "STB_PROGRESS_FILE": str(folder / "progress.txt"),
           "MPLBACKEND": "agg", "JUPYTER_RUNTIME_DIR": str(folder / "runtime")}
    for start in range(1, KERNEL_STARTS + 1):
        logged = kernel_log.stat().st_size if kernel_log.exists() else 0
        try:
            papermill.execute_notebook(
                str(NOTEBOOK_DIR / f"{job['stem']}.ipynb"), str(folder / "executed.ipynb"),
                parameters=job["parameters"], kernel_name="python3", cwd=str(NOTEBOOK_DIR), progress_bar=False,
                log_output=False, kernel_manager_class=kernel_manager(kernel_log, env),
            )
            return 0
        except papermill.PapermillExecutionError as error:
            first = error.evalue.splitlines()[0] if error.evalue else ""
            (folder / "error.txt").write_text(
                f"{job['run']} failed in cell {error.exec_count}: {error.ename}: {first}")
            return 1
        except RuntimeError as error:  # the kernel died or would not start: show what it said
            chatter = kernel_log.read_bytes()[logged:].decode(errors="replace") if kernel_log.exists() else ""
            if lost_the_port_race(chatter) and start < KERNEL_STARTS:
                continue
            (folder / "error.txt").write_text(f"{job['run']}: the kernel failed: {error}\n{chatter[-2000:]}")
            return 1
    raise AssertionError("unreachable: the last start returns")


def main(argv: list[str] | None = None) -> int:
    die_with_parent()
    skip_the_iri_grammar()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # unwind: papermill shuts its kernel down
    job = json.loads(Path((argv or sys.argv[1:])[0]).read_text(encoding="utf-8"))
    os.environ["JUPYTER_RUNTIME_DIR"] = str(Path(job["folder"]) / "runtime")
    return execute(job)


if __name__ == "__main__":
    sys.exit(main())
