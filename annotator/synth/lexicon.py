"""Word lists for the synthetic notes: Faker's en_US name and address data plus our own lists.

Everything here is invented or generic; no list holds a real person's data. Faker's provider
tables are read directly (not through a ``Faker`` instance) so that generation stays fast and
draws every value from our own seeded :class:`random.Random`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from faker.providers.address.en_US import Provider as AddressProvider
from faker.providers.person.en_US import Provider as PersonProvider

RESOURCES = Path(__file__).resolve().parent.parent.parent / "resources"
GENERIC_DEPARTMENTS_FILE = RESOURCES / "synth" / "generic_departments.txt"

FIRST_NAMES_FEMALE: tuple[str, ...] = tuple(PersonProvider.first_names_female)
FIRST_NAMES_MALE: tuple[str, ...] = tuple(PersonProvider.first_names_male)
LAST_NAMES: tuple[str, ...] = tuple(PersonProvider.last_names)

# A few names with accents and other non-ASCII letters, so offsets are tested beyond ASCII.
ACCENTED_FIRST_FEMALE = ("Zoë", "Renée", "Inés", "Łucja", "Chloé", "Ångela", "Siân", "Mónica")
ACCENTED_FIRST_MALE = ("José", "François", "Jürgen", "Björn", "Ramón", "Łukasz", "Søren", "Tomáš")
ACCENTED_LAST = ("Müller", "Nguyễn", "Peña", "Åberg", "Ødegård", "Çelik", "Lefèvre", "Dvořák", "Ibáñez")

STATES: tuple[str, ...] = tuple(AddressProvider.states)
STATE_ABBREVIATIONS: tuple[str, ...] = tuple(AddressProvider.states_abbr[:50])
STREET_SUFFIXES = ("Street", "St.", "Avenue", "Ave", "Road", "Rd", "Lane", "Drive", "Court", "Place", "Way", "Terrace")
STREET_ROOTS = (
    "Maple", "Oak", "Cedar", "Elm", "Pine", "Willow", "Birch", "Chestnut", "Walnut", "Hawthorne",
    "Ridge", "Mill", "Church", "Spring", "Harbor", "Orchard", "Meadow", "Summit", "Lincoln",
    "Franklin", "Quarry", "Bayview", "Juniper", "Foxglove", "Kettle", "Marsh", "Tamarack",
)
CITY_FIRST = (
    "North", "East", "West", "South", "New", "Lake", "Port", "Fort", "Glen", "Mount", "Fair", "Green",
    "Red", "Clear", "Silver", "Oak", "Elm", "Maple", "Stone", "Brook",
)
CITY_SECOND = (
    "field", "ville", "ton", "burgh", "haven", "wood", "ford", "port", "dale", "bridge", "mont",
    "water", "view", "side", "crest", "brook", " Falls", " Springs", " Harbor", " Junction",
)
COUNTRIES = (
    "Brazil", "Portugal", "Haiti", "Vietnam", "Ireland", "Italy", "India", "China", "Cape Verde",
    "Dominican Republic", "Guatemala", "Poland", "Greece", "Russia", "Ethiopia", "Jamaica",
    "Cambodia", "Lebanon", "Colombia", "Kenya", "Peru", "Mexico", "Canada", "Germany",
)
LOCATION_OTHER = (
    "the Cape", "the North Shore", "Lake Winnetka", "Pinecrest Campground", "the Berkshires",
    "Harrow Island", "the South End", "Marlow State Park", "the Riverside boardwalk",
)
HOSPITAL_STEMS = (
    "Mercy Valley", "St. Agatha's", "Brookhaven", "Northgate", "Riverbend", "Holloway", "Lakeside",
    "Greenfield", "Saint Brendan", "Whitmore", "Calder", "Ashford", "Fairmount", "Bayshore",
    "Kingsbridge", "Stonewall", "Elmhurst", "Harmon", "Wexford", "Redfield", "Oakridge", "Linden",
)
HOSPITAL_SUFFIXES = (
    "Hospital", "Medical Center", "General Hospital", "Memorial Hospital", "Regional Medical Center",
    "Community Hospital", "Health Center", "Clinic", "Rehabilitation Hospital",
)
# Department names that are specific to one place (tagged), unlike the generic list.
UNIQUE_DEPARTMENTS = (
    "Hargrove Heart Institute", "Levitt Diabetes Center", "Crane Family Cancer Pavilion",
    "Ostrow Memory Clinic", "Pemberton Wound Care Unit", "Daley Cardiac Rehabilitation Unit",
    "Fenn Vascular Lab", "Whitaker Sleep Center", "Kessler Infusion Suite", "Bramwell 4 North",
)
ORGANIZATIONS = (
    "Allied Freight Lines", "Bluewater Insurance", "Northfield Public Schools", "Harbor Credit Union",
    "Greenleaf Landscaping", "Keystone Machine Works", "Summit Software", "Redline Transit Authority",
    "Pioneer Bakery", "Granite State Telephone", "Orchard Hill Elementary", "Tri-County Water District",
    "Maple Leaf Diner", "Coastal Fisheries Co-op", "Vantage Logistics", "Beacon Street Church",
)
PROFESSIONS = (
    "bus driver", "electrician", "accountant", "teacher", "carpenter", "software engineer",
    "truck driver", "retired machinist", "lawyer", "hairdresser", "librarian", "mail carrier",
    "construction worker", "firefighter", "police officer", "chef", "cashier", "plumber",
    "welder", "real estate agent", "bank teller", "farmer", "graphic designer", "housekeeper",
    "security guard", "fisherman", "professor", "landscaper", "pilot", "janitor",
)
EMAIL_DOMAINS = ("mailbox.example", "northnet.example", "webpost.example", "inbox.example")
URL_WORDS = ("mychart", "patientportal", "heartfriends", "diabetes-connect", "carelink", "healthnotes")
HOLIDAYS = (
    "Christmas", "Thanksgiving", "New Year's Eve", "New Year's Day", "Easter", "Memorial Day",
    "Labor Day", "the Fourth of July", "Halloween", "Christmas Eve", "Valentine's Day",
)
SEASONS = ("spring", "summer", "fall", "winter", "autumn")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)
MONTH_ABBREVIATIONS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
RELATIVES_FEMALE = ("mother", "sister", "daughter", "wife", "aunt", "grandmother")
RELATIVES_MALE = ("father", "brother", "son", "husband", "uncle", "grandfather")

MEDICATIONS = (
    ("metformin", "500 mg", "PO BID"), ("lisinopril", "10 mg", "PO daily"),
    ("atorvastatin", "40 mg", "PO qHS"), ("aspirin", "81 mg", "PO daily"),
    ("metoprolol tartrate", "25 mg", "PO BID"), ("insulin glargine", "22 units", "SC qHS"),
    ("furosemide", "40 mg", "PO daily"), ("oxycodone", "5 mg", "PO q6h PRN pain"),
    ("acetaminophen", "650 mg", "PO q6h PRN"), ("clopidogrel", "75 mg", "PO daily"),
    ("amlodipine", "5 mg", "PO daily"), ("omeprazole", "20 mg", "PO daily"),
    ("warfarin", "2.5 mg", "PO daily"), ("levothyroxine", "75 mcg", "PO daily"),
    ("gabapentin", "300 mg", "PO TID"), ("Tylenol #3", "1 tab", "PO q4-6h PRN"),
    ("sliding scale insulin", "per protocol", "SC AC/HS"), ("nitroglycerin", "0.4 mg", "SL q5min x3 PRN"),
)
LABS = (
    ("Na", "mmol/L", 133, 146), ("K", "mmol/L", 3.3, 5.4), ("Cl", "mmol/L", 96, 110),
    ("CO2", "mmol/L", 20, 31), ("BUN", "mg/dL", 8, 42), ("Cr", "mg/dL", 0.6, 2.4),
    ("Glucose", "mg/dL", 70, 310), ("HbA1c", "%", 5.4, 10.9), ("WBC", "K/uL", 4.1, 15.2),
    ("Hgb", "g/dL", 9.1, 15.8), ("Plt", "K/uL", 140, 420), ("LDL", "mg/dL", 55, 190),
    ("Trop I", "ng/mL", 0.0, 0.4), ("INR", "", 0.9, 3.1),
)
PROBLEMS = (
    "type 2 diabetes mellitus", "hypertension", "hyperlipidemia", "coronary artery disease",
    "CHF with EF 35%", "chronic kidney disease stage 3", "obstructive sleep apnea", "GERD",
    "atrial fibrillation", "peripheral neuropathy", "hypothyroidism", "osteoarthritis of the knees",
    "COPD", "depression", "gout", "BPH",
)
@cache
def generic_departments() -> tuple[str, ...]:
    """The generic department names (every spelling), read from resources."""
    names: list[str] = []
    for line in GENERIC_DEPARTMENTS_FILE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            names.extend(part.strip() for part in line.split("/") if part.strip())
    return tuple(names)

# Plain clinical sentences without PHI: notes are mostly this.
NARRATIVE = (
    "Blood sugars have ranged from 110 to 240 on the home glucometer.",
    "Reports good adherence to the medication regimen and checks feet daily.",
    "No chest pain, palpitations, orthopnea or PND.",
    "Mild bilateral lower extremity edema, improved with leg elevation.",
    "Denies nausea, vomiting, diarrhea, melena or hematochezia.",
    "Appetite is fair; weight down 3 lb since the last visit.",
    "Sleeps on two pillows; uses CPAP most nights.",
    "Walks about a quarter mile before stopping because of calf pain.",
    "Vision stable; last dilated eye exam without retinopathy.",
    "Neuropathic pain in both feet is worse at night.",
    "The wound bed is clean with granulation tissue and no purulence.",
    "ECG shows sinus rhythm at 72 with old inferior Q waves and no acute ST changes.",
    "Echocardiogram: LVEF 45%, mild MR, no pericardial effusion.",
    "Stress test without reversible ischemia.",
    "Renal function at baseline; potassium within normal limits.",
    "Counseled on a low-sodium, carbohydrate-consistent diet.",
    "Reviewed the signs of hypoglycemia and how to treat them.",
    "Will continue to monitor closely and adjust insulin as needed.",
    "Agrees with the plan and all questions were answered.",
    "Lungs with scattered expiratory wheezes, no crackles.",
    "Abdomen soft, non-tender, non-distended, normal bowel sounds.",
    "Neurologic exam non-focal; monofilament sensation decreased at both great toes.",
    "Skin warm and dry; no rashes.",
    "Pulses 2+ radial, 1+ dorsalis pedis bilaterally.",
    "No jugular venous distension at 45 degrees.",
    "Mood is good; denies depressive symptoms, PHQ-2 negative.",
    "Vaccinations reviewed; influenza vaccine given today.",
    "Continues cardiac rehabilitation three times a week.",
    "Home BP log shows readings in the 130s over 80s.",
    "Patient instructed to return for worsening pain, fever or redness.",
    "Fingerstick glucose this morning was 182.",
    "She has been using the walker at home without falls.",
    "He reports occasional lightheadedness on standing quickly.",
    "Tolerating a regular diet without difficulty.",
    "No further episodes of chest pressure since the last visit.",
    "The dressing was changed and the wound edges look healthy.",
    "Urine output adequate; creatinine trending down.",
    "Telemetry without events overnight.",
    "Blood pressure remains above goal despite three agents.",
    "Insulin doses were reviewed line by line with the patient.",
    "Discussed the importance of daily weights and a 2 g sodium diet.",
    "Foot exam: intact skin, no calluses, nails trimmed.",
    "Continues to smoke half a pack per day; cessation counseling provided.",
    "Cholesterol panel due at the next visit.",
    "No bleeding on anticoagulation; INR therapeutic.",
    "Reports good energy and is walking 30 minutes most days.",
    "Lower extremity edema resolved after diuretic adjustment.",
    "The patient was seen and examined; the history was reviewed.",
    "Medication reconciliation was completed today.",
    "Home health nursing will check vitals twice a week.",
    "The patient understands the risks and benefits and wishes to proceed.",
    "Hypoglycemia twice this month, both before lunch.",
    "No orthostatic changes on repeat vitals.",
    "Weight stable compared with the prior visit.",
    "Denies claudication, rest pain or non-healing wounds.",
    "Cough is productive of white sputum in the mornings.",
    "Podiatry follow-up for nail care is arranged.",
    "Diabetes education reinforced with teach-back.",
    "Nutrition consult placed for carbohydrate counting.",
    "Ambulating independently in the hallway.",
)
REVIEW_OF_SYSTEMS = (
    "Constitutional: no fevers, chills or night sweats.",
    "Eyes: no visual changes.",
    "ENT: no sore throat.",
    "Cardiovascular: as per HPI.",
    "Respiratory: no cough or hemoptysis.",
    "GI: no abdominal pain.",
    "GU: nocturia x2, no dysuria.",
    "MSK: chronic knee pain.",
    "Neuro: no focal weakness, numbness of the feet.",
    "Psych: no anxiety.",
    "Endocrine: polyuria and polydipsia, improved.",
    "Heme: bruises easily on aspirin.",
)

# Sentences with a lookalike: (sentence, the part a careless annotator tags, the type given).
LOOKALIKE_SENTENCES: tuple[tuple[str, str, str], ...] = (
    ("Toe ulcer 2/2 diabetes.", "2/2", "DATE"),
    ("AKI 2/2 dehydration.", "2/2", "DATE"),
    ("Anemia 2/2 chronic kidney disease.", "2/2", "DATE"),
    ("Rates pain 7/10.", "7/10", "DATE"),
    ("Pain 3/10 at rest.", "3/10", "DATE"),
    ("Strength 5/5 throughout.", "5/5", "DATE"),
    ("Grade 2/6 systolic murmur at the LUSB.", "2/6", "DATE"),
    ("Needs 24/7 supervision per family.", "24/7", "DATE"),
    ("Took 1/2 tab of oxycodone x2 overnight.", "1/2", "DATE"),
    ("BP 142/88, HR 76.", "142/88", "DATE"),
    ("Transferred from OSH with records.", "OSH", "HOSPITAL"),
    ("Admitted to the ICU overnight.", "ICU", "DEPARTMENT"),
    ("History of Parkinson's disease, on carbidopa-levodopa.", "Parkinson", "DOCTOR"),
    ("Foley catheter in place, draining clear urine.", "Foley", "DOCTOR"),
    ("Mild Alzheimer's dementia per family.", "Alzheimer", "DOCTOR"),
    ("Remote Bell's palsy, resolved.", "Bell", "DOCTOR"),
    ("Swan-Ganz catheter removed.", "Swan-Ganz", "DOCTOR"),
    ("Holter monitor placed for 48 hours.", "Holter", "DOCTOR"),
    ("Remote history of Hodgkin lymphoma, treated.", "Hodgkin", "DOCTOR"),
    ("Graves' disease s/p RAI.", "Graves", "DOCTOR"),
    ("Babinski sign negative bilaterally.", "Babinski", "DOCTOR"),
    ("Murphy's sign negative.", "Murphy", "DOCTOR"),
    ("Crohn's disease, quiescent.", "Crohn", "DOCTOR"),
    ("Cushing's syndrome was ruled out.", "Cushing", "DOCTOR"),
    ("Jackson-Pratt drain with serosanguinous output.", "Jackson-Pratt", "DOCTOR"),
    ("Hickman line site clean.", "Hickman", "DOCTOR"),
    ("Medtronic pacemaker interrogated, normal function.", "Medtronic", "ORGANIZATION"),
    ("Angio-Seal closure device used at the right groin.", "Angio-Seal", "DEVICE"),
    ("A&O x3.", "", ""),
    ("Glasgow Coma Scale 15.", "", ""),
    ("CHADS2 score 3.", "", ""),
    ("NYHA class II symptoms.", "", ""),
    ("EF 40-45% on last echo.", "", ""),
    ("Sx x3 days.", "", ""),
)
