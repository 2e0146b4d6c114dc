"""The PHI guidelines a gold standard can follow, by name (what the model suggests follows it).

The names live here so that a project can record its gold's guideline (``project.toml``);
what each one tags is :mod:`annotator.crf.guidelines`.
"""

from __future__ import annotations

I2B2_2014 = "i2b2-2014"
SAFE_HARBOR = "safe-harbor"
GUIDELINES = (I2B2_2014, SAFE_HARBOR)
GUIDELINE_TITLES = {
    I2B2_2014: "i2b2 2014: every age, weekdays, professions",
    SAFE_HARBOR: "HIPAA Safe Harbor: ages over 89, no weekdays, professions, states or countries",
}
