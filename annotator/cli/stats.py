"""``annotator stats PATH...``: counts per category and type, tokens and averages."""

from __future__ import annotations

import argparse
from typing import Any

from annotator.cli.common import add_json_flag, existing_path, format_table, print_json, progress_bar, shown


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="count PHI annotations per category and type, tokens and per-document averages",
        description=(
            "Statistics of i2b2 XML files, like Table 3 of the i2b2 2014 corpus paper: "
            "documents, patients, whitespace tokens, characters, PHI tokens, annotations per "
            "category (and per type with --by-type), and per-document averages."
        ),
    )
    parser.add_argument(
        "paths",
        nargs="+",
        type=existing_path,
        metavar="PATH",
        help="i2b2 XML files, or folders holding them (sub-folders are not searched); with several "
        "paths, each is counted on its own, then all together",
    )
    parser.add_argument("--by-type", action="store_true", help="also list every type within its category")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def format_statistics(stats: dict[str, Any], by_type: bool = False) -> str:
    """The statistics as text: a summary, then a table of categories (and types)."""
    average = stats["per_document"]
    summary = [
        ("documents", stats["documents"], ""),
        ("patients", stats["patients"], ""),
        ("annotations", stats["annotations"], f"{average['annotations']:.2f} per document"),
        ("tokens", stats["tokens"], f"{average['tokens']:.1f} per document"),
        ("PHI tokens", stats["phi_tokens"], f"{average['phi_tokens']:.2f} per document"),
        ("characters", stats["characters"], f"{average['characters']:.0f} per document"),
    ]
    lines = [f"{name:<12} {value:>10,}  {note}".rstrip() for name, value, note in summary]
    total = stats["annotations"] or 1
    rows: list[list[object]] = []
    for category in stats["categories"]:
        rows.append([category["category"], "", category["count"], f"{100 * category['count'] / total:.1f}"])
        if by_type:
            for entry in category["types"]:
                if entry["type"] != category["category"] or len(category["types"]) > 1:
                    rows.append(["", entry["type"], entry["count"], f"{100 * entry['count'] / total:.1f}"])
    headers = ["category", "type", "count", "%"] if by_type else ["category", "count", "%"]
    if not by_type:
        rows = [[row[0], row[2], row[3]] for row in rows]
    text = "\n".join(lines) + "\n\n" + format_table(headers, rows)
    # Tags without a span and links are not spans: their own rows, never in the PHI counts.
    tags = stats.get("document_tags", {})
    if tags.get("count"):
        table = [[name, count] for name, count in tags["by_tag"].items()]
        text += f"\n\ndocument-level tags {tags['count']:,}\n" + format_table(["tag", "count"], table)
    relations = stats.get("relations", {})
    if relations.get("count"):
        table = [[entry["kind"], entry["type"], entry["count"]] for entry in relations["by_type"]]
        text += f"\n\nlinks {relations['count']:,}\n" + format_table(["kind", "type", "count"], table)
    return text


def run(args: argparse.Namespace) -> int:
    from annotator.workflows.stats import StatsRequest, statistics

    with progress_bar("reading") as update:
        stats = statistics(StatsRequest(tuple(args.paths)), progress=update)
    if args.json:
        print_json(stats)
        return 0
    for part in stats.get("parts", []):
        print(f"== {shown(part['path'])}")
        print(format_statistics(part["statistics"], args.by_type) + "\n")
    if "parts" in stats:
        print(f"== all {len(stats['parts'])} paths together (a file named twice counts once)")
    print(format_statistics(stats, args.by_type))
    return 0
