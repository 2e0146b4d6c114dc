"""Style B's own word lists: places, organisations, professions and the clinical words that collide.

None of these lists is shared with style A (``annotator.synth.lexicon``); person names come from
Faker's non-US locales in ``people.py``. The collision lists are the point of style B: ordinary
clinical language that shares a string with some PHI and must stay untagged.
"""

from __future__ import annotations

# Surnames that are also common English words; patients and doctors get them so that the same
# string appears both as a tagged name and as an untagged word.
WORD_SURNAMES = (
    "Long",
    "Young",
    "White",
    "Brown",
    "Rose",
    "May",
    "Bill",
    "Frank",
    "Hope",
    "Price",
    "Mark",
    "Wood",
    "Hill",
    "Stone",
    "Nash",
    "Mac",
    "Blake",
    "Murphy",
    "Foley",
    "Hodgkin",
)

# Clinical phrases with a word that is a surname above or an eponym. (phrase, collision word, the
# type a careless annotator would give the word).
COLLISIONS = (
    ("Foley catheter", "Foley", "DOCTOR"),
    ("15 Fr Blake drain", "Blake", "DOCTOR"),
    ("Babinski sign", "Babinski", "DOCTOR"),
    ("Parkinson disease", "Parkinson", "DOCTOR"),
    ("Hodgkin lymphoma", "Hodgkin", "DOCTOR"),
    ("Murphy sign negative", "Murphy", "DOCTOR"),
    ("Glasgow coma scale 15", "Glasgow", "CITY"),
    ("Apgar scores 8 and 9 at birth", "Apgar", "DOCTOR"),
    ("Long-standing hypertension", "Long", "PATIENT"),
    ("young for age", "young", "PATIENT"),
    ("white cell count", "white", "PATIENT"),
    ("brown sputum", "brown", "PATIENT"),
    ("rose-coloured rash", "rose", "PATIENT"),
    ("may need repeat imaging", "may", "DATE"),
    ("frank haematuria", "frank", "PATIENT"),
    ("hope to wean oxygen", "hope", "PATIENT"),
    ("price of the inhaler discussed", "price", "PATIENT"),
    ("skin marking done", "marking", "PATIENT"),
    ("wood splinter removed", "wood", "PATIENT"),
    ("Spinal with MAC", "MAC", "DOCTOR"),
    ("NASH cirrhosis", "NASH", "PATIENT"),
    ("NSR 70s-80s", "70s-80s", "DATE"),
    ("COPD exacerbation", "COPD", "HOSPITAL"),
    ("s/p CABG x3", "CABG", "HOSPITAL"),
    ("seen in ED", "ED", "DEPARTMENT"),
    ("back to OR", "OR", "STATE"),
    ("closed with staples", "staples", "ORGANIZATION"),
    ("Stone in the CBD", "Stone", "PATIENT"),
    ("Hill-Sachs lesion", "Hill", "PATIENT"),
    ("Bell palsy", "Bell", "DOCTOR"),
    ("Addison disease", "Addison", "DOCTOR"),
    ("Graves disease", "Graves", "DOCTOR"),
    ("Crohn flare", "Crohn", "DOCTOR"),
    ("Homans sign", "Homans", "DOCTOR"),
    ("Romberg negative", "Romberg", "DOCTOR"),
    ("Swan-Ganz catheter", "Swan", "DOCTOR"),
    ("Whipple procedure", "Whipple", "DOCTOR"),
    ("Nissen fundoplication", "Nissen", "DOCTOR"),
)

# Number expressions that look like dates or phone numbers but are not.
NUMBER_LOOKALIKES = (
    ("pain 5/10", "5/10"),
    ("1/2 tab at night", "1/2"),
    ("2-3 times a week", "2-3"),
    ("power 4/5 both legs", "4/5"),
    ("BP 120/80", "120/80"),
    ("HR 70s-80s", "70s-80s"),
    ("GCS 14/15", "14/15"),
    ("O2 sat 94% on 2 L", "94%"),
    ("FiO2 0.35", "0.35"),
    ("12-lead ECG", "12-lead"),
)

# Hospital name patterns; ``{}`` is a place or saint name.
HOSPITAL_PATTERNS = (
    "St. {}'s Hospital",
    "St {}'s",
    "{} Health System",
    "{} Medical Group",
    "{} Infirmary",
    "Royal {} Hospital",
    "{} District General",
    "{} Cottage Hospital",
    "Mercy {}",
    "{} Regional Health",
    "Our Lady of {}",
    "{} Base Hospital",
)
SAINTS = ("Bartholomew", "Columba", "Aidan", "Brigid", "Hilda", "Cuthbert", "Ninian", "Winifred", "Osmund")
HOSPITAL_PLACES = (
    "Kestrel Vale",
    "Ashgrove",
    "Pinecombe",
    "Wyndmoor",
    "Larchfield",
    "Northmere",
    "Braxton",
    "Coldharbour",
    "Tillbury",
    "Ravensholt",
    "Fernleigh",
    "Oakhurst",
    "Marlow Bay",
)
ORGANISATION_PATTERNS = (
    "{} Logistics Ltd",
    "{} & Sons Joinery",
    "{} Freight",
    "{} Building Society",
    "{} County Council",
    "{} Dairy Co-op",
    "{} Primary School",
    "{} Bus Company",
)
PROFESSIONS = (
    "postman",
    "publican",
    "joiner",
    "crane operator",
    "veterinary nurse",
    "primary school teacher",
    "sheep farmer",
    "pharmacist",
    "barrister",
    "quantity surveyor",
    "bus driver",
    "chef",
    "warehouse supervisor",
    "coal miner",
    "dental hygienist",
    "electrician",
)
DEPARTMENTS = (
    "Wren Ward",
    "Ward 7B",
    "Heron Unit",
    "Rowan Ward",
    "Kingfisher Day Unit",
    "Ward 12 North",
)
LOCATION_OTHER = ("Ben Nevis", "the Cairngorms", "Snowdon", "Uluru", "Lake Taupo", "the Burren")
COUNTRIES = (
    "Ireland",
    "Scotland",
    "New Zealand",
    "Australia",
    "Poland",
    "Nigeria",
    "India",
    "Portugal",
    "Philippines",
    "Jamaica",
    "Ghana",
    "Canada",
)

# Regions by convention: (kind, [(name, abbreviation)], postcode style)
REGIONS = {
    "uk": (
        "county",
        (
            ("Kent", "Kent"),
            ("Devon", "Devon"),
            ("Cumbria", "Cumbria"),
            ("Fife", "Fife"),
            ("Norfolk", "Norfolk"),
        ),
    ),
    "au": (
        "state",
        (("New South Wales", "NSW"), ("Victoria", "VIC"), ("Queensland", "QLD"), ("Tasmania", "TAS")),
    ),
    "ca": ("province", (("Ontario", "ON"), ("Manitoba", "MB"), ("Nova Scotia", "NS"), ("Alberta", "AB"))),
    "us": ("state", (("Vermont", "VT"), ("Oregon", "OR"), ("Maine", "ME"), ("Iowa", "IA"))),
}
TOWNS = (
    "Thornbury",
    "Greywick",
    "Ballinvar",
    "Kilmory",
    "Wollombi",
    "Tamarind Creek",
    "Carrick Hill",
    "Elmsford",
    "Port Adley",
    "Murrinvale",
    "Stanbridge",
    "Lowther",
    "Glenroe",
    "Brackenby",
)
STREET_KINDS = ("Road", "Lane", "Crescent", "Close", "Terrace", "Parade", "Mews", "Way", "Drive")
STREET_NAMES = (
    "Mill",
    "Church",
    "Station",
    "Orchard",
    "Kings",
    "Harbour",
    "Wattle",
    "Heather",
    "Gum Tree",
    "Maple",
    "Quarry",
    "Abbey",
)

# Drugs for the medication tables (generic names, no brand that is also a company).
DRUGS = (
    ("metoprolol", "25 mg", "PO", "BD"),
    ("apixaban", "5 mg", "PO", "BD"),
    ("furosemide", "40 mg", "PO", "mane"),
    ("atorvastatin", "40 mg", "PO", "nocte"),
    ("paracetamol", "1 g", "PO", "QDS PRN"),
    ("enoxaparin", "40 mg", "SC", "OD"),
    ("omeprazole", "20 mg", "PO", "OD"),
    ("salbutamol", "100 mcg", "INH", "PRN"),
    ("levothyroxine", "75 mcg", "PO", "OD"),
    ("gabapentin", "300 mg", "PO", "TDS"),
    ("insulin detemir", "18 units", "SC", "nocte"),
    ("amlodipine", "5 mg", "PO", "OD"),
)
LABS = (
    ("Hb", "g/L", 95, 150),
    ("WCC", "x10^9/L", 4, 16),
    ("Plt", "x10^9/L", 120, 420),
    ("Na", "mmol/L", 128, 145),
    ("K", "mmol/L", 3, 5),
    ("Creat", "umol/L", 60, 210),
    ("CRP", "mg/L", 1, 180),
    ("ALT", "U/L", 12, 90),
    ("INR", "", 1, 3),
)

# Telegraphic progress phrases (no articles, abbreviations), for shift and course entries.
PROGRESS_PHRASES = (
    "pt settled, slept most of night",
    "c/o nausea, ondansetron given w good effect",
    "mobilised to chair w frame, 1 assist",
    "IVAB continued, afebrile since",
    "reviewed by physio, chest clear on ausc",
    "eating 1/2 of meals, dietitian referral made",
    "pressure areas intact, repositioned 2-hrly",
    "drain output 40 mL serous",
    "wound clean and dry, dressing changed",
    "BNO, aperients charted",
    "PU well, fluid balance +300 mL",
    "confused overnight, 4AT 5, delirium screen sent",
    "SBAR handover given to day staff",
    "IDC removed, TWOC in progress",
)
