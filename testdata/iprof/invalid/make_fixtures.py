#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the invalid iprof fixtures (one small file per validation rule).

Each case is a base profile with one rule broken. The expected messages live
in tests/unit/test_iprof_validate.c next to the case names. Re-run after
editing: python3 make_fixtures.py (writes into this directory).
"""
import os

T = '"types":[{"id":0,"name":"A"},{"id":1,"name":"B"}]'
M = '"methods":[{"id":5,"name":"m","signature":[0,1]},{"id":6,"name":"n","signature":[0,1,1]}]'


def doc(*members, version='"1.1.0"', types=T, methods=M):
    parts = []
    if version is not None:
        parts.append('"version":' + version)
    if types is not None:
        parts.append(types)
    if methods is not None:
        parts.append(methods)
    parts.extend(members)
    return '{' + ','.join(parts) + '}'


CASES = {
    # JSON syntax
    'syntax_truncated_in_key': '{"version":"1.1.0","types":[],"methods":[{"id":1,"name":"x","signatur',
    'syntax_bad_token': '{"version":"1.1.0",\n"types":[{"id":0,"name":"A"} x],"methods":[]}',
    'syntax_duplicate_key': '{"version":"1.1.0","types":[],"methods":[],"types":[]}',
    'syntax_count_too_big': doc('"callCountProfiles":[{"ctx":"5:0","records":[9223372036854775808]}]'),
    'syntax_type_id_too_big': doc('"virtualInvokeProfiles":[{"ctx":"5:1","records":[99999999999999999999,1]}]'),
    # top level
    'top_not_object': '[{"version":"1.1.0"}]',
    'version_missing': doc(version=None),
    'version_not_string': doc(version='110'),
    'version_pattern': doc(version='"1.1"'),
    'version_unknown': doc(version='"2.0.0"'),
    'types_missing': doc(types=None),
    'types_not_array': doc(types='"types":{}'),
    'methods_missing': doc(methods=None),
    'methods_not_array': doc(methods='"methods":7'),
    # tables
    'type_not_object': doc(types='"types":[{"id":0,"name":"A"},3]'),
    'type_id_not_integer': doc(types='"types":[{"id":0,"name":"A"},{"id":"1","name":"B"}]'),
    'type_id_out_of_range': doc(types='"types":[{"id":0,"name":"A"},{"id":4294967296,"name":"B"},{"id":1,"name":"C"}]'),
    'type_name_not_string': doc(types='"types":[{"id":0,"name":"A"},{"id":1,"name":null}]'),
    'type_id_duplicate': doc(types='"types":[{"id":0,"name":"A"},{"id":1,"name":"B"},{"id":1,"name":"C"}]'),
    'method_name_missing': doc(methods='"methods":[{"id":5,"signature":[0,1]}]'),
    'method_signature_not_array': doc(methods='"methods":[{"id":5,"name":"m","signature":0}]'),
    'method_signature_dangling': doc(methods='"methods":[{"id":5,"name":"m","signature":[0,77]}]'),
    'method_id_duplicate': doc(methods='"methods":[{"id":5,"name":"m","signature":[0,1]},{"id":5,"name":"n","signature":[0,1]}]'),
    'method_id_out_of_range': doc(methods='"methods":[{"id":-2147483649,"name":"m","signature":[0,1]}]'),
    # instanceof
    'instanceof_both_spellings': doc('"instanceofProfiles":[]', '"instanceOfProfiles":[]'),
    'instanceof_in_1_0_0': doc('"instanceOfProfiles":[{"ctx":"5:3","records":[0,1]}]', version='"1.0.0"'),
    # sections and entries
    'section_not_array': doc('"callCountProfiles":{}'),
    'entry_not_object': doc('"conditionalProfiles":[[]]'),
    'ctx_missing': doc('"callCountProfiles":[{"records":[1]}]'),
    'records_not_array': doc('"samplingProfiles":[{"ctx":"5:1","records":1}]'),
    # contexts
    'ctx_syntax_trailing_separator': doc('"conditionalProfiles":[{"ctx":"5:1<","records":[]}]'),
    'ctx_syntax_space': doc('"conditionalProfiles":[{"ctx":"5:1 <6:2","records":[]}]'),
    'ctx_syntax_negative_method': doc('"samplingProfiles":[{"ctx":"-5:1","records":[1]}]'),
    'ctx_syntax_empty': doc('"virtualInvokeProfiles":[{"ctx":"","records":[]}]'),
    'ctx_call_count_bci_not_0': doc('"callCountProfiles":[{"ctx":"5:3<6:1","records":[1]}]'),
    'ctx_call_count_bci_00': doc('"callCountProfiles":[{"ctx":"5:00","records":[1]}]'),
    'ctx_monitor_not_0_0': doc('"monitorProfiles":[{"ctx":"5:0","records":[0,1]}]'),
    'ctx_method_out_of_range': doc('"conditionalProfiles":[{"ctx":"5:1<2147483648:0","records":[]}]'),
    'ctx_bci_out_of_range': doc('"conditionalProfiles":[{"ctx":"5:-2147483649","records":[]}]'),
    'ctx_dangling_method': doc('"callCountProfiles":[{"ctx":"5:0<9:4","records":[1]}]'),
    'ctx_repeated': doc('"callCountProfiles":[{"ctx":"5:0","records":[1]},{"ctx":"6:0","records":[1]},{"ctx":"5:0","records":[2]}]'),
    # record lengths
    'records_call_count_length': doc('"callCountProfiles":[{"ctx":"5:0","records":[1,2]}]'),
    'records_sampling_length': doc('"samplingProfiles":[{"ctx":"5:0","records":[]}]'),
    'records_conditional_length': doc('"conditionalProfiles":[{"ctx":"5:1","records":[1,0,3,4]}]'),
    'records_virtual_invoke_length': doc('"virtualInvokeProfiles":[{"ctx":"5:1","records":[0,1,1]}]'),
    'records_instanceof_length': doc('"instanceOfProfiles":[{"ctx":"5:1","records":[0]}]'),
    'records_monitor_length': doc('"monitorProfiles":[{"ctx":"0:0","records":[0,1,1]}]'),
    # record values
    'record_type_dangling': doc('"virtualInvokeProfiles":[{"ctx":"5:1","records":[0,1,42,3]}]'),
    'record_count_negative': doc('"conditionalProfiles":[{"ctx":"5:1","records":[4,0,-1]}]'),
    'record_count_not_integer': doc('"samplingProfiles":[{"ctx":"5:1","records":[1.5]}]'),
    'record_branch_bci_out_of_range': doc('"conditionalProfiles":[{"ctx":"5:1","records":[2147483648,0,1]}]'),
    'record_branch_index_out_of_range': doc('"conditionalProfiles":[{"ctx":"5:1","records":[4,-2147483649,1]}]'),
    # legacy 0.2.0
    'legacy_ctx_separator': '{"version":"0.2.0","types":[{"id":0,"typeName":"A"}],"methods":[{"id":5,"methodName":"m","signature":[0,0]}],"hotnessPoints":[{"methodBciList":"5:0<5:1","records":[1]}]}',
    'legacy_name_key': '{"version":"0.2.0","types":[{"id":0,"name":"A"}],"methods":[]}',
}

here = os.path.dirname(os.path.abspath(__file__))
for name, text in CASES.items():
    with open(os.path.join(here, name + '.iprof'), 'w') as f:
        f.write(text)
print(len(CASES), 'fixtures')
