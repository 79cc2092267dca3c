"""Validates a JSON document against a draft-07 schema whose $refs name the schemas beside it.

usage: validate_json_schema.py SCHEMA DOCUMENT
Every *.json beside SCHEMA is known by its $id, as CycloneDX's bom schema refers to its
spdx and jsf schemas. Prints each error and exits 1 when the document does not validate.
"""
import json
import pathlib
import sys
import warnings

import jsonschema

schema_path, document_path = map(pathlib.Path, sys.argv[1:])
known = {}
for path in schema_path.parent.glob("*.json"):
    schema = json.loads(path.read_text())
    known[schema.get("$id", path.as_uri())] = schema
schema = json.loads(schema_path.read_text())
jsonschema.Draft7Validator.check_schema(schema)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # RefResolver, which every 4.x has
    resolver = jsonschema.RefResolver(schema.get("$id", ""), schema, store=known)
    validator = jsonschema.Draft7Validator(schema, resolver=resolver)
    errors = sorted(validator.iter_errors(json.loads(document_path.read_text())), key=lambda e: list(e.path))
for error in errors:
    print(f"{document_path}: {'/'.join(map(str, error.path))}: {error.message}", file=sys.stderr)
sys.exit(1 if errors else 0)
