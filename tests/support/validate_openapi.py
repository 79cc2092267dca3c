"""Validates a JSON document against one schema of an OpenAPI 3 document's components.

usage: validate_openapi.py OPENAPI.json SCHEMA_NAME DOCUMENT
The schema is #/components/schemas/SCHEMA_NAME, its $refs resolved in OPENAPI.json. As the
Kubernetes API server does with strict field validation, a property that an object's schema
does not list is an error too, and so is one whose schema is not in OPENAPI.json. Prints
each error and exits 1 when the document does not validate.
"""
import json
import sys
import warnings

import jsonschema

openapi_path, name, document_path = sys.argv[1:]
openapi = json.load(open(openapi_path))
schemas = openapi["components"]["schemas"]
document = json.load(open(document_path))
errors = []

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # RefResolver, which every 4.x has
    resolver = jsonschema.RefResolver("", openapi)
    validator = jsonschema.Draft4Validator({"$ref": "#/components/schemas/" + name}, resolver=resolver)
    try:
        errors += [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(document)]
    except jsonschema.RefResolutionError as e:
        errors.append(f"a schema the document uses is not vendored: {e}")


def resolved(schema):
    """The schema with its allOf of one $ref and its $ref followed, as Kubernetes writes them."""
    while True:
        if "$ref" in schema:
            key = schema["$ref"].rsplit("/", 1)[-1]
            if key not in schemas:
                return None
            schema = schemas[key]
        elif len(schema.get("allOf", [])) == 1:
            schema = schema["allOf"][0]
        else:
            return schema


def unknown_fields(value, schema, path):
    schema = resolved(schema)
    if schema is None:
        errors.append(f"{path}: its schema is not vendored")
        return
    if isinstance(value, dict) and "properties" in schema:
        for key, item in value.items():
            if key not in schema["properties"]:
                errors.append(f"{path}/{key}: unknown field")
            else:
                unknown_fields(item, schema["properties"][key], f"{path}/{key}")
    elif isinstance(value, dict) and isinstance(schema.get("additionalProperties"), dict):
        for key, item in value.items():
            unknown_fields(item, schema["additionalProperties"], f"{path}/{key}")
    elif isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            unknown_fields(item, schema["items"], f"{path}/{index}")


unknown_fields(document, {"$ref": "#/components/schemas/" + name}, "")
for error in errors:
    print(f"{document_path}: {error}", file=sys.stderr)
sys.exit(1 if errors else 0)
