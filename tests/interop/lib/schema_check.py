# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""schema_check.py [--model] SCHEMA FILE...: every FILE is strict UTF-8 JSON
valid against the JSON schema SCHEMA (python3-jsonschema; the draft the schema
names in "$schema", 2020-12 when it names none; the schema itself is checked
first). Prints up to 3 errors of each invalid file and a count; exits 1 when
any file is invalid. --model: each FILE is also profbridge's model JSON
("profbridge": "model") with at least one record.
Serves bridge_iprof_roundtrip, bridge_llvm_roundtrip, json_schemas, json_view
and cov_read_llvm."""
import json
import sys

import jsonschema

args = sys.argv[1:]
model = args[:1] == ['--model']
if model:
    args = args[1:]
if len(args) < 1:
    sys.exit(__doc__)
schema = json.load(open(args[0]))
cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
cls.check_schema(schema)
v = cls(schema)
bad = 0
for f in args[1:]:
    text = open(f, 'rb').read().decode('utf-8')  # strict: raw bytes that are not UTF-8 fail
    doc = json.loads(text)
    errs = list(v.iter_errors(doc))
    for e in errs[:3]:
        print(f"INVALID {f}: /{'/'.join(map(str, e.path))}: {e.message[:300]}")
    if model and not errs and not (isinstance(doc, dict) and doc.get('profbridge') == 'model' and doc.get('records')):
        print(f"INVALID {f}: not a model JSON with records")
        errs = [None]
    bad += bool(errs)
print(f"{args[0].rsplit('/', 1)[-1]}: {len(args) - 1} documents checked, {bad} invalid")
sys.exit(1 if bad else 0)
