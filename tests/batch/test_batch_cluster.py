"""The batch commands end to end on a real cluster (``dask scheduler`` + two ``dask worker``
processes on 127.0.0.1): the same files and scores as the single-process commands, a killed
worker or a killed job that still ends with complete, identical output, one writer per output."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from annotator.io.jsonl import read_jsonl
from annotator.io.locking import DocumentLock
from tests.batch.conftest import Archive, Cluster, dask_cluster, published_files, run_cli


def _single_process_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.xml"))}


def test_preannotate_matches_the_single_process_command(
    archive: Archive, cluster: Cluster, tmp_path: Path
) -> None:
    run_cli("preannotate", archive.model, archive.notes, "-o", tmp_path / "single")
    result = run_cli(
        "batch", "preannotate", archive.model, archive.notes, "-o", tmp_path / "batch",
        "--scheduler", cluster.address, "--partition-size", "4", "--json",
    )  # fmt: skip
    report = json.loads(result.stdout)
    expected = _single_process_files(tmp_path / "single")
    assert published_files(tmp_path / "batch") == expected
    assert report["documents"] == len(expected)
    assert report["counts"]["suggestions"] > 0
    assert report["failures"] == []
    manifest = json.loads((tmp_path / "batch" / "batch-manifest.json").read_text())
    assert manifest["complete"] is True


def test_deidentify_matches_the_single_process_command(
    archive: Archive, cluster: Cluster, tmp_path: Path
) -> None:
    run_cli("deidentify", archive.gold, "-o", tmp_path / "single", "--seed", "7")
    run_cli(
        "batch", "deidentify", archive.gold, "-o", tmp_path / "batch", "--seed", "7",
        "--map-dir", tmp_path / "maps", "--scheduler", cluster.address, "--partition-size", "3",
    )  # fmt: skip
    assert published_files(tmp_path / "batch") == _single_process_files(tmp_path / "single")
    maps = sorted((tmp_path / "maps").glob("part-*.json"))
    assert len(maps) == len(list((tmp_path / "batch").glob("part-*")))
    assert all(path.stat().st_mode & 0o077 == 0 for path in maps)


def test_the_seed_is_drawn_when_not_given_and_never_written_beside_the_notes(
    archive: Archive, cluster: Cluster, tmp_path: Path
) -> None:
    # The seed redraws every patient's date shift: published with the notes, it undoes them.
    outputs = []
    for run in ("first", "second"):
        out, maps = tmp_path / run, tmp_path / f"{run}-maps"
        run_cli(
            "batch", "deidentify", archive.gold, "-o", out, "--map-dir", maps,
            "--scheduler", cluster.address, "--partition-size", "2",
        )  # fmt: skip
        outputs.append(published_files(out))
        seeds = {json.loads(path.read_text())["seed"] for path in maps.glob("part-*.json")}
        assert len(seeds) == 1 and isinstance(seed := seeds.pop(), int)  # one seed for every partition
        assert str(seed) not in (out / "batch-manifest.json").read_text()
    assert outputs[0] != outputs[1]
    given = tmp_path / "given"
    run_cli(
        "batch", "deidentify", archive.gold, "-o", given, "--seed", "424242", "--scheduler", cluster.address
    )
    assert "424242" not in (given / "batch-manifest.json").read_text()


def test_evaluate_scores_equal_the_single_process_command(archive: Archive, cluster: Cluster) -> None:
    single = run_cli("evaluate", "--gold", archive.gold, "--system", archive.system, "--json")
    batch = run_cli(
        "batch", "evaluate", "--gold", archive.gold, "--system", archive.system, "--json",
        "--scheduler", cluster.address, "--partition-size", "2",
    )  # fmt: skip
    assert batch.stdout == single.stdout
    # A misspelt exclusion is said by both, and changes no score.
    option = ("--exclude", "DOCTOR,PATEINT")
    single = run_cli("evaluate", "--gold", archive.gold, "--system", archive.system, "--json", *option)
    batch = run_cli(
        "batch", "evaluate", "--gold", archive.gold, "--system", archive.system, "--json", *option,
        "--scheduler", cluster.address, "--partition-size", "2",
    )  # fmt: skip
    assert batch.stdout == single.stdout
    note = "note: excluded type PATEINT matches no annotation (a typo?); nothing was excluded for it"
    assert f"annotator evaluate: {note}" in single.stderr
    assert f"annotator batch evaluate: {note}" in batch.stderr
    assert "DOCTOR matches" not in single.stderr + batch.stderr


def test_jsonl_shards_in_jsonl_shards_out(archive: Archive, cluster: Cluster, tmp_path: Path) -> None:
    run_cli("preannotate", archive.model, archive.notes, "-o", tmp_path / "single")
    run_cli(
        "batch", "preannotate", archive.model, archive.shards, "-o", tmp_path / "batch",
        "--scheduler", cluster.address,
    )  # fmt: skip
    shards = sorted((tmp_path / "batch").glob("part-*.jsonl"))
    assert len(shards) == 2  # three export shards, two of them sharing a patient
    from annotator.io.i2b2 import read_i2b2

    expected = {p.stem: read_i2b2(p) for p in (tmp_path / "single").glob("*.xml")}
    got = {d.doc_id: d for shard in shards for d in read_jsonl(shard)}
    assert got.keys() == expected.keys()
    for doc_id, document in got.items():
        want = expected[doc_id]
        assert document.text == want.text
        assert [(a.start, a.end, a.type, a.confidence) for a in document.annotations] == [
            (a.start, a.end, a.type, a.confidence) for a in want.annotations
        ]


def test_a_second_writer_to_the_same_output_is_refused(
    archive: Archive, cluster: Cluster, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    with DocumentLock(out, "someone-else"):
        refused = run_cli(
            "batch", "preannotate", archive.model, archive.notes, "-o", out,
            "--scheduler", cluster.address, check=False,
        )  # fmt: skip
    assert refused.returncode == 1
    assert "locked by someone-else" in refused.stderr and "Traceback" not in refused.stderr
    assert not out.exists()


def test_a_resumed_job_finishes_with_identical_output(
    archive: Archive, cluster: Cluster, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    # Byte-identical to an uninterrupted run for a given seed (a drawn one is drawn again).
    argv: list[str | Path] = ["batch", "deidentify", archive.gold, "-o", out, "--scheduler", cluster.address,
            "--partition-size", "1", "--seed", "7"]  # fmt: skip
    uninterrupted = json.loads(run_cli(*argv, "--json").stdout)
    complete = published_files(out)
    # A killed job: some partitions published, one half-written staging folder, unfinished manifest.
    parts = sorted(out.glob("part-*"))
    for part in parts[len(parts) // 2 :]:
        for path in part.iterdir():
            path.unlink()
        part.rmdir()
    (out / ".staging-part-00009-abc").mkdir()
    manifest = json.loads((out / "batch-manifest.json").read_text())
    manifest["complete"] = False
    (out / "batch-manifest.json").write_text(json.dumps(manifest))
    refused = run_cli(*argv, check=False)
    assert refused.returncode == 2 and "--resume" in refused.stderr  # a usage error, as for every writer
    resumed = json.loads(run_cli(*argv, "--resume", "--json").stdout)
    assert resumed["resumed"] == len(parts) // 2
    # The totals are the job's: the earlier run recorded the counts of what it published.
    assert (resumed["documents"], resumed["counts"], resumed["notes"]) == (
        uninterrupted["documents"],
        uninterrupted["counts"],
        [],
    )
    assert 0 < resumed["documents_this_run"] < resumed["documents"]
    assert published_files(out) == complete
    assert not list(out.glob(".staging-*"))


def test_a_resumed_job_says_what_its_totals_leave_out(
    archive: Archive, cluster: Cluster, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    argv: list[str | Path] = ["batch", "preannotate", archive.model, archive.notes, "-o", out,
            "--scheduler", cluster.address, "--partition-size", "1"]  # fmt: skip
    run_cli(*argv)
    parts = sorted(out.glob("part-*"))
    shutil.rmtree(parts[-1])
    manifest = json.loads((out / "batch-manifest.json").read_text())
    manifest["complete"] = False
    (out / "batch-manifest.json").write_text(json.dumps(manifest))
    # Killed before it recorded its first partition's counts (the last line cut short by the kill).
    ledger = out / ".batch-counts.jsonl"
    lines = ledger.read_text().splitlines()
    ledger.write_text("\n".join([line for line in lines if '"part-00000"' not in line] + ['{"partit']) + "\n")
    resumed = json.loads(run_cli(*argv, "--resume", "--json").stdout)
    assert resumed["notes"] == [
        f"1 of the {len(parts) - 1} partition(s) published by an earlier run recorded no counts: "
        "the documents and counts leave them out"
    ]


def test_a_killed_worker_does_not_lose_partitions(archive: Archive, tmp_path: Path) -> None:
    # Four copies of the notes under other patient ids: enough partitions to outlive the kill.
    notes = tmp_path / "notes"
    notes.mkdir()
    for copy in range(4):
        for path in archive.notes.glob("*.xml"):
            (notes / f"{copy}{path.name}").write_bytes(path.read_bytes())
    with dask_cluster(tmp_path / "own-cluster") as own:
        out = tmp_path / "out"
        command = [
            sys.executable, "-m", "annotator", "batch", "preannotate", str(archive.model),
            str(notes), "-o", str(out), "--scheduler", own.address, "--partition-size", "1", "--json",
        ]  # fmt: skip
        job = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not list(out.glob("part-*")) and job.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert job.poll() is None, "the job ended before a worker could be killed"
        own.kill_worker(0)
        stdout, stderr = job.communicate(timeout=300)
    assert job.returncode == 0, stderr
    assert json.loads(stdout)["failures"] == []
    run_cli("preannotate", archive.model, notes, "-o", tmp_path / "single")
    assert published_files(out) == _single_process_files(tmp_path / "single")


def test_preannotate_takes_the_bundled_default_model(
    archive: Archive, cluster: Cluster, tmp_path: Path
) -> None:
    run_cli("preannotate", "default", archive.notes, "-o", tmp_path / "single")
    result = run_cli(
        "batch", "preannotate", "default", archive.notes, "-o", tmp_path / "batch",
        "--scheduler", cluster.address, "--partition-size", "20",
    )  # fmt: skip
    assert published_files(tmp_path / "batch") == _single_process_files(tmp_path / "single")
    assert f"written to {tmp_path / 'batch'}" in result.stderr  # what it wrote is announced
    # The guideline reaches every worker: the same files as the command with the same choice.
    run_cli(
        "preannotate", "default", archive.notes, "-o", tmp_path / "single-sh", "--guideline", "safe-harbor"
    )
    run_cli(
        "batch", "preannotate", "default", archive.notes, "-o", tmp_path / "batch-sh",
        "--scheduler", cluster.address, "--partition-size", "20", "--guideline", "safe-harbor",
    )  # fmt: skip
    safe_harbor = _single_process_files(tmp_path / "single-sh")
    assert published_files(tmp_path / "batch-sh") == safe_harbor
    assert safe_harbor != _single_process_files(tmp_path / "single")  # weekdays and young ages left out


def test_the_site_lists_reach_every_worker(archive: Archive, cluster: Cluster, tmp_path: Path) -> None:
    from annotator.io.i2b2 import read_i2b2

    # Two words of a note outside its PHI, listed as a place: a phrase of several words stands
    # wherever it is.
    first = read_i2b2(sorted(archive.gold.glob("*.xml"))[0])
    phrase = next(
        m.group()
        for m in re.finditer(r"\b[a-z]{4,} [a-z]{4,}\b", first.text)
        if not any(a.start < m.end() and m.start() < a.end for a in first.annotations)
    )
    lists = tmp_path / "site-lists.tsv"
    lists.write_text(f"LOCATION-OTHER\t{phrase}\n", encoding="utf-8")
    run_cli("preannotate", archive.model, archive.notes, "-o", tmp_path / "single", "--site-lists", lists)
    run_cli(
        "batch", "preannotate", archive.model, archive.notes, "-o", tmp_path / "batch",
        "--scheduler", cluster.address, "--partition-size", "4", "--site-lists", lists,
    )  # fmt: skip
    with_lists = _single_process_files(tmp_path / "single")
    assert published_files(tmp_path / "batch") == with_lists
    tagged = read_i2b2(tmp_path / "single" / f"{first.doc_id}.xml")
    assert ("LOCATION-OTHER", phrase) in {(a.type, a.text) for a in tagged.annotations}


def _planted_gold(folder: Path) -> Path:
    from annotator.io.i2b2 import write_i2b2
    from tests.deid.builders import note

    folder.mkdir()
    write_i2b2(
        note("601-01", "Patient ", ("Zebulon Quist", "PATIENT"), " seen. Quist called."),
        folder / "601-01.xml",
    )
    write_i2b2(note("602-01", "Seen by ", ("Dr. Blake", "DOCTOR"), ". Blake agreed."), folder / "602-01.xml")
    return folder


def test_deidentify_leak_options_act_as_in_the_single_process_command(
    cluster: Cluster, tmp_path: Path
) -> None:
    gold = _planted_gold(tmp_path / "gold")
    allow = tmp_path / "allow.json"
    allow.write_text(json.dumps({"version": 1, "allow": [{"text": "Blake", "scope": "corpus"}]}))
    options: list[str | Path] = ["--method", "mask", "--on-leak", "mask", "--allow", allow]
    run_cli("deidentify", gold, "-o", tmp_path / "single", *options)
    result = run_cli(
        "batch", "deidentify", gold, "-o", tmp_path / "batch", *options, "--review-dir", tmp_path / "reviews",
        "--scheduler", cluster.address, "--partition-size", "1", "--json",
    )  # fmt: skip
    assert published_files(tmp_path / "batch") == _single_process_files(tmp_path / "single")
    counts = json.loads(result.stdout)["counts"]
    assert counts["leak findings masked"] == 1 and counts["leak findings passed by the allow file"] == 1
    reviews = sorted((tmp_path / "reviews").glob("part-*.json"))
    assert len(reviews) == 1 and reviews[0].stat().st_mode & 0o077 == 0  # only 601's partition found any
    assert "Quist" in reviews[0].read_text()
    assert "leak reviews" in result.stderr


def test_deidentify_refuses_a_leaking_partition_and_writes_its_review(
    cluster: Cluster, tmp_path: Path
) -> None:
    gold = _planted_gold(tmp_path / "gold")
    refused = run_cli(
        "batch", "deidentify", gold, "-o", tmp_path / "batch", "--review-dir", tmp_path / "reviews",
        "--scheduler", cluster.address, "--partition-size", "1", check=False,
    )  # fmt: skip
    assert refused.returncode == 1 and "not published" in refused.stderr and "Quist" not in refused.stderr
    assert len(list((tmp_path / "batch").glob("part-*"))) == 0  # both patients' notes leak
    assert len(list((tmp_path / "reviews").glob("part-*.json"))) == 2


def test_deidentify_with_site_lists_masks_what_the_single_process_command_masks(
    cluster: Cluster, tmp_path: Path
) -> None:
    from annotator.io.i2b2 import read_i2b2, write_i2b2
    from tests.deid.builders import note

    gold = tmp_path / "gold"
    gold.mkdir()
    write_i2b2(
        note("611-01", "Seen by ", ("Dr. Blake", "DOCTOR"), ". Qqkondouli aware."), gold / "611-01.xml"
    )
    write_i2b2(note("612-01", "Patient ", ("Zebulon Quist", "PATIENT"), " seen."), gold / "612-01.xml")
    lists = tmp_path / "site-lists.tsv"
    lists.write_text("DOCTOR\tQqkondouli\n", encoding="utf-8")
    options: list[str | Path] = ["--method", "mask", "--on-leak", "mask", "--site-lists", lists]
    run_cli("deidentify", gold, "-o", tmp_path / "single", *options)
    result = run_cli(
        "batch", "deidentify", gold, "-o", tmp_path / "batch", *options,
        "--scheduler", cluster.address, "--partition-size", "1", "--json",
    )  # fmt: skip
    single = _single_process_files(tmp_path / "single")
    assert published_files(tmp_path / "batch") == single
    assert "Qqkondouli" not in read_i2b2(tmp_path / "single" / "611-01.xml").text
    assert json.loads(result.stdout)["counts"]["leak findings masked"] == 1
    # The manifest records the lists by count and digest, never their phrases.
    assert "Qqkondouli" not in (tmp_path / "batch" / "batch-manifest.json").read_text()


def _killed_halfway(out: Path, maps: Path) -> dict[str, bytes]:
    """An output as a killed job leaves it: the later half of its partitions (and their audit
    maps) never written. Every file of the output and the maps, for checking nothing changes."""
    parts = sorted(out.glob("part-*"))
    for part in parts[len(parts) // 2 :]:
        shutil.rmtree(part)
        (maps / f"{part.name}.json").unlink()
    manifest = json.loads((out / "batch-manifest.json").read_text())
    manifest["complete"] = False
    (out / "batch-manifest.json").write_text(json.dumps(manifest))
    return {
        str(p): p.read_bytes() for folder in (out, maps) for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_a_resume_keeps_the_jobs_one_seed(archive: Archive, cluster: Cluster, tmp_path: Path) -> None:
    given_out, given_maps = tmp_path / "given", tmp_path / "given-maps"
    given: list[str | Path] = ["batch", "deidentify", archive.gold, "-o", given_out, "--map-dir", given_maps,
             "--scheduler", cluster.address, "--partition-size", "2", "--seed", "7"]  # fmt: skip
    run_cli(*given)
    left = _killed_halfway(given_out, given_maps)
    refused = run_cli(*given[:-1], "8", "--resume", check=False)
    assert refused.returncode == 2 and "--seed is not the seed this job was started with" in refused.stderr
    assert "7" not in refused.stderr.replace(str(given_maps), "") and "8" not in refused.stderr.replace(
        str(given_maps), ""
    )
    assert {
        str(p): p.read_bytes() for f in (given_out, given_maps) for p in sorted(f.rglob("*")) if p.is_file()
    } == left

    out, maps = tmp_path / "out", tmp_path / "maps"
    argv: list[str | Path] = ["batch", "deidentify", archive.gold, "-o", out, "--map-dir", maps,
            "--scheduler", cluster.address, "--partition-size", "2"]  # fmt: skip
    run_cli(*argv)  # a drawn seed, kept in the audit maps only
    complete = published_files(out)
    left = _killed_halfway(out, maps)
    for extra, says in (
        (["--seed", "5"], "this job was started without --seed"),
        (["--map-dir", tmp_path / "elsewhere"], "has its audit map here"),
    ):
        refused = run_cli(*argv, *extra, "--resume", check=False)
        assert refused.returncode == 2 and says in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
        assert {
            str(p): p.read_bytes() for f in (out, maps) for p in sorted(f.rglob("*")) if p.is_file()
        } == left
    # Without --seed it goes on with the drawn seed: the same notes as the uninterrupted run.
    run_cli(*argv, "--resume")
    assert published_files(out) == complete
    seeds = {json.loads(path.read_text())["seed"] for path in maps.glob("part-*.json")}
    assert len(seeds) == 1
