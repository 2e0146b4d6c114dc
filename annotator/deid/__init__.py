"""De-identified export: masks or realistic surrogates, one mapping per patient, a leak check.

Entry points: :func:`annotator.deid.export.export_deidentified` (folder to folder, all or
nothing) and :func:`annotator.deid.export.deidentify_documents` (in memory).
"""
