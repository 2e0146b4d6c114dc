"""Style C's own hand-written word lists: jobs, facilities, wards, employers, landmarks, events.

Written for this style alone (no shared job or hospital list), so that its vocabulary is not
the one any tagger was tuned on. Everything here is invented or generic; a real-sounding name
is a coincidence.
"""

from __future__ import annotations

#: Jobs a patient or relative holds (PROFESSION), none of them medical staff.
PROFESSIONS = (
    "forklift operator",
    "retired schoolteacher",
    "dental hygienist",
    "long-haul trucker",
    "sheep shearer",
    "dairy farmer",
    "line cook",
    "bus driver",
    "crane operator",
    "real estate agent",
    "letter carrier",
    "pastry chef",
    "welder",
    "call centre agent",
    "seasonal fruit picker",
    "insurance adjuster",
    "hairdresser",
    "stonemason",
    "childcare worker",
    "security guard",
    "retired miner",
    "fishing deckhand",
    "court stenographer",
    "bookkeeper",
    "landscape gardener",
    "flight attendant",
    "locksmith",
    "parish priest",
    "tattoo artist",
    "sommelier",
    "apprentice electrician",
    "graduate student",
    "barista",
    "warehouse picker",
    "piano tuner",
    "snowplough driver",
    "veterinary technician",
    "loans officer",
    "casino dealer",
    "youth worker",
)

#: Word stems for facility, ward and clinic names (combined with the kinds below).
PLACE_STEMS = (
    "Tamarack",
    "Karri",
    "Wattle Bay",
    "Lakehead",
    "Harcourt",
    "Ballinure",
    "Kestrel Point",
    "Mount Ardent",
    "Cedar Vale",
    "Riverbend",
    "Glenmorgan",
    "Saltmarsh",
    "Ironbark",
    "Port Aubrey",
    "Whitlow Creek",
    "Northshore",
    "Kilbarry",
    "Sainte-Rosalie",
    "Coolabah",
    "Greystone",
)

HOSPITAL_KINDS = (
    "Regional Hospital",
    "General Hospital",
    "Health Centre",
    "Base Hospital",
    "District Health Services",
    "Memorial Hospital",
    "Community Hospital",
)

SAINTS = ("St. Brigid's", "St Columba's", "Saint-Luc", "St. Agnes", "Holy Cross", "Our Lady of Mercy")

#: Outpatient facilities (HOSPITAL: a medical facility, whatever its size).
CLINIC_KINDS = (
    "Family Practice",
    "Medical Clinic",
    "Physio & Rehab",
    "Community Mental Health",
    "Walk-in Clinic",
    "Health Hub",
)

#: Named wards and programmes inside a hospital (DEPARTMENT; generic units are not PHI).
WARD_NAMES = (
    "Banksia Ward",
    "Osprey Unit",
    "Jardine Pain Program",
    "Carrick Mood Disorders Clinic",
    "Heron Step-Down Unit",
    "Wollemi Ward",
    "Marlow Burns Unit",
    "Fraser Wing",
    "Pemberton Day Ward",
    "Larkspur Unit",
)

#: Employers, schools, insurers, clubs (ORGANIZATION); ``{}`` takes a surname.
ORGANIZATION_PATTERNS = (
    "{} Haulage Ltd",
    "{} & Sons Roofing",
    "Northgate Freight Lines",
    "Pinecrest Mutual",
    "{} Family Dairy",
    "Southern Cross Logistics",
    "{} Hotel",
    "Kinsmen Club",
    "{} Brothers Construction",
    "Bluewater Seafoods",
    "Maple Leaf Couriers",
    "{} Primary School",
    "Harbour City Transit",
    "Greenway Landscaping",
)

PHARMACY_PATTERNS = ("{} Pharmacy", "{}'s Chemist", "Pharmacie {}", "Medicine Shoppe {}")

#: Named places that are neither addresses nor facilities (LOCATION-OTHER).
LANDMARKS = (
    "Kinsmen Arena",
    "Carrow Point boat ramp",
    "Bayview Mall",
    "Rotary Park",
    "Ross River campground",
    "Eastgate Shopping Centre",
    "Pier 21",
    "Lighthouse Beach",
    "Queen Street Mall",
    "Gunnamatta Reserve",
)

#: Named events that would date or place the patient (OTHER; the article stays outside the tag).
EVENTS = (
    "Harrow Creek derailment",
    "Cyclone Oriel",
    "Millbrook flood",
    "Ironbark mine collapse",
    "Kilbarry ferry fire",
)

#: Countries of birth and of travel (COUNTRY).
COUNTRIES = (
    "Philippines",
    "Chile",
    "Vietnam",
    "Ireland",
    "New Zealand",
    "India",
    "Mexico",
    "Lebanon",
    "Samoa",
    "Poland",
    "Canada",
    "Australia",
    "Sri Lanka",
    "Ukraine",
)

STREET_SUFFIXES = ("Cres", "Rd", "Street", "Close", "Terrace", "Ave", "Line", "Drive", "Pl", "Way", "Court")

#: Holidays and named days (DATE when they place the event in time).
HOLIDAYS = ("Easter", "Christmas", "Boxing Day", "Canada Day", "Anzac Day", "New Year's Eve", "Thanksgiving")

RELATIONS = ("dtr", "son", "wife", "husband", "partner", "sister", "mother", "neighbour", "brother")

COMPLAINTS = (
    ("chest tightness", "ACS r/o"),
    ("fall from ladder", "#NOF?"),
    ("SOB on exertion", "CHF exacerbation"),
    ("abdo pain RLQ", "appendicitis?"),
    ("laceration L hand", "tendon injury?"),
    ("confusion", "delirium ?UTI"),
    ("syncope at work", "vasovagal vs arrhythmia"),
    ("headache + vomiting", "migraine vs SAH"),
)

OPERATIONS = (
    ("laparoscopic cholecystectomy", "symptomatic cholelithiasis"),
    ("ORIF right distal radius", "displaced distal radius fracture"),
    ("left total knee arthroplasty", "end-stage OA left knee"),
    ("open inguinal hernia repair (mesh)", "reducible right inguinal hernia"),
    ("appendicectomy", "acute appendicitis"),
    ("carpal tunnel release, right", "carpal tunnel syndrome"),
)

MEDICATIONS = (
    ("metformin", "500 mg", "PO BID"),
    ("ramipril", "5 mg", "PO daily"),
    ("atorvastatin", "40 mg", "PO nocte"),
    ("apixaban", "5 mg", "PO BID"),
    ("sertraline", "100 mg", "PO mane"),
    ("salbutamol MDI", "2 puffs", "q4h PRN"),
    ("pantoprazole", "40 mg", "PO daily"),
    ("quetiapine", "25 mg", "PO qhs PRN"),
    ("furosemide", "40 mg", "PO mane"),
    ("levothyroxine", "75 mcg", "PO daily"),
    ("insulin glargine", "18 units", "SC qhs"),
    ("paracetamol", "1 g", "PO QID PRN"),
)

#: Device kinds whose serial numbers are DEVICE ids (the device name itself is not PHI).
DEVICES = (
    "pacemaker",
    "insulin pump",
    "CPAP machine",
    "cochlear implant processor",
    "ICD",
    "home O2 concentrator",
)
