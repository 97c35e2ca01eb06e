"""Generates the pages of the synthetic REST source of benchmark (f): GBIF occurrence-search
responses (`{"offset", "limit", "endOfRecords", "count", "results": [...]}`) whose records carry
GBIF's occurrence fields plus eBird's observation fields, nested the way the real ones are
(`gadm` objects three levels deep, lists of strings and of objects). Deterministic: every value
derives from the record number. Not product code.

  gen_pages.py OUT_DIR MEGABYTES [--page-size N]

Writes OUT_DIR/page_000000.json ... (one file per page, PAGE_SIZE records each, the last one
shorter) and OUT_DIR/pages.json ({"count", "page_size", "pages", "bytes"}), which
bench/page_server.py serves and the floor reads.
"""
import argparse
import json
import os

PAGE_SIZE = 300  # GBIF's largest page

SPECIES = [
    ("ovenbi1", "Ovenbird", "Seiurus aurocapilla", "Parulidae", "Seiurus", 2489153),
    ("rufhum", "Rufous Hummingbird", "Selasphorus rufus", "Trochilidae", "Selasphorus", 2476855),
    ("canvas", "Canvasback", "Aythya valisineria", "Anatidae", "Aythya", 2498261),
    ("ruckin", "Ruby-crowned Kinglet", "Corthylio calendula", "Regulidae", "Corthylio", 9809229),
    ("gamqua", "Gambel's Quail", "Callipepla gambelii", "Odontophoridae", "Callipepla", 5228057),
    ("cacwre", "Cactus Wren", "Campylorhynchus brunneicapillus", "Troglodytidae",
     "Campylorhynchus", 5231459),
    ("verdin", "Verdin", "Auriparus flaviceps", "Remizidae", "Auriparus", 2487986),
    ("phaino", "Phainopepla", "Phainopepla nitens", "Ptiliogonatidae", "Phainopepla", 2489998),
]
COUNTIES = ["Maricopa", "Pima", "Cochise", "Santa Cruz", "Coconino", "Yavapai", "Pinal"]
ISSUES = ["COORDINATE_ROUNDED", "GEODETIC_DATUM_ASSUMED_WGS84", "CONTINENT_DERIVED_FROM_COORDINATES",
          "TAXON_MATCH_FUZZY", "RECORDED_DATE_MISMATCH"]
DATASET = "4fa7b334-ce0d-4e88-aaae-2e0c138d049e"


def record(i: int) -> dict:
    code, common, sci, family, genus, taxon = SPECIES[i % len(SPECIES)]
    county = COUNTIES[(i // 7) % len(COUNTIES)]
    day = 1 + i % 28
    month = 1 + (i // 28) % 12
    hour, minute = (i * 7) % 24, (i * 13) % 60
    lat = round(31.3 + (i % 36000) / 10000.0, 5)
    lng = round(-114.8 + (i % 57000) / 10000.0, 5)
    return {
        "key": 5_000_000_000 + i,
        "datasetKey": DATASET,
        "publishingOrgKey": "e2e717bf-551a-4917-bdc9-4fa0f342c530",
        "installationKey": "7182d304-b0a2-404b-baba-2086a325c221",
        "hostingOrganizationKey": "e2e717bf-551a-4917-bdc9-4fa0f342c530",
        "publishingCountry": "US",
        "protocol": "DWC_ARCHIVE",
        "lastCrawled": "2026-01-15T10:%02d:00.000+00:00" % (i % 60),
        "lastParsed": "2026-01-15T11:%02d:00.000+00:00" % (i % 60),
        "crawlId": 400 + i % 5,
        "basisOfRecord": "HUMAN_OBSERVATION",
        "occurrenceStatus": "PRESENT",
        "taxonKey": taxon,
        "acceptedTaxonKey": taxon,
        "kingdomKey": 1, "phylumKey": 44, "classKey": 212, "orderKey": 729 + i % 5,
        "familyKey": 5000 + i % len(SPECIES), "genusKey": 2400000 + i % len(SPECIES),
        "speciesKey": taxon,
        "scientificName": f"{sci} (Linnaeus, 1766)",
        "acceptedScientificName": f"{sci} (Linnaeus, 1766)",
        "kingdom": "Animalia", "phylum": "Chordata", "class": "Aves", "family": family,
        "genus": genus, "species": sci, "genericName": genus,
        "specificEpithet": sci.split()[1], "taxonRank": "SPECIES", "taxonomicStatus": "ACCEPTED",
        "vernacularName": common,
        "decimalLatitude": lat,
        "decimalLongitude": lng,
        "coordinateUncertaintyInMeters": None if i % 5 == 0 else float(10 + i % 900),
        "country": "United States of America",
        "countryCode": "US",
        "stateProvince": "Arizona",
        "locality": f"{county} County hotspot {i % 4000}",
        "year": 2025 + i % 2, "month": month, "day": day,
        "eventDate": "%d-%02d-%02dT%02d:%02d:00" % (2025 + i % 2, month, day, hour, minute),
        "recordedBy": f"obsr{100000 + i % 90000}",
        "identifiedBy": f"obsr{100000 + i % 90000}",
        "occurrenceID": f"URN:catalog:CLO:EBIRD:OBS{1_000_000_000 + i}",
        "catalogNumber": f"OBS{1_000_000_000 + i}",
        "institutionCode": "CLO",
        "collectionCode": "EBIRD",
        "license": "http://creativecommons.org/licenses/by/4.0/legalcode",
        "references": f"https://ebird.org/checklist/S{200_000_000 + i // 12}",
        # eBird's observation fields
        "speciesCode": code,
        "comName": common,
        "sciName": sci,
        "locId": f"L{30_000_000 + i % 4000}",
        "locName": f"{county} County hotspot {i % 4000}",
        "obsDt": "%d-%02d-%02d %02d:%02d" % (2025 + i % 2, month, day, hour, minute),
        "howMany": None if i % 9 == 0 else 1 + i % 25,
        "obsValid": i % 17 != 0,
        "obsReviewed": i % 11 == 0,
        "locationPrivate": i % 3 == 0,
        "subId": f"S{200_000_000 + i // 12}",
        # nested: objects (flattened by dlt-style normalizers), lists (child tables)
        "gadm": {
            "level0": {"gid": "USA", "name": "United States"},
            "level1": {"gid": "USA.3_1", "name": "Arizona"},
            "level2": {"gid": f"USA.3.{1 + i % 15}_1", "name": county},
        },
        "issues": ISSUES[: i % 4],
        "identifiers": [{"identifier": f"URN:catalog:CLO:EBIRD:OBS{1_000_000_000 + i}"}],
        "media": [
            {"type": "StillImage", "format": "image/jpeg",
             "identifier": f"https://cdn.download.ams.birds.cornell.edu/api/v1/asset/{i}{k}/1800",
             "license": "http://creativecommons.org/licenses/by-nc/4.0/",
             "rightsHolder": f"obsr{100000 + i % 90000}", "created": "2025-%02d-%02dT00:00:00" %
             (month, day)}
            for k in range(i % 3)
        ],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("megabytes", type=float)
    ap.add_argument("--page-size", type=int, default=PAGE_SIZE)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    target = int(args.megabytes * 1024 * 1024)
    size = args.page_size
    # The record count must be known before the first page (every page carries it): measure the
    # size of a sample page and scale.
    sample = len(json.dumps([record(i) for i in range(size)], separators=(",", ":")))
    count = max(size, int(target / sample * size))
    pages = (count + size - 1) // size
    total = 0
    for p in range(pages):
        first = p * size
        last = min(count, first + size)
        body = {"offset": first, "limit": size, "endOfRecords": last >= count, "count": count,
                "results": [record(i) for i in range(first, last)]}
        text = json.dumps(body, separators=(",", ":")).encode()
        with open(os.path.join(args.out, "page_%06d.json" % p), "wb") as f:
            f.write(text)
        total += len(text)
    with open(os.path.join(args.out, "pages.json"), "w") as f:
        json.dump({"count": count, "page_size": size, "pages": pages, "bytes": total}, f)


if __name__ == "__main__":
    main()
