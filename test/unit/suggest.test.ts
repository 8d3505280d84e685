import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closest, closestN, editDistance } from '../../server/src/core/text/suggest.js';

const ON_ERROR = ['action', 'retryCount', 'retryDelay'];

test('editDistance is optimal string alignment', () => {
  assert.equal(editDistance('', ''), 0);
  assert.equal(editDistance('abc', ''), 3);
  assert.equal(editDistance('', 'ab'), 2);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('wirte', 'write'), 1); // one transposition
  assert.equal(editDistance('ca', 'abc'), 3); // OSA, not unrestricted Damerau (2)
  assert.equal(editDistance('filesytem', 'filesystem'), 1);
});

test('typical misspellings', () => {
  assert.equal(closest('max_lenght', ['max_length', 'min_length', 'pattern']), 'max_length');
  assert.equal(closest('retrycount', ON_ERROR), 'retryCount');
  assert.equal(closest('filesytem', ['github', 'filesystem', 'fetch']), 'filesystem');
  assert.equal(closest('wirte', ['read', 'write', 'list']), 'write');
  assert.equal(closest('retry-delay', ON_ERROR), 'retryDelay');
});

test('synonyms map known wrong words when the right word is a candidate', () => {
  const synonyms = { maxRetries: 'retryCount' };
  assert.equal(closest('maxRetries', ON_ERROR), undefined);
  assert.equal(closest('maxRetries', ON_ERROR, { synonyms }), 'retryCount');
  assert.equal(closest('max_retries', ON_ERROR, { synonyms }), 'retryCount');
  // Not among the candidates: no suggestion from the synonym.
  assert.equal(closest('maxRetries', ['action'], { synonyms }), undefined);
  // Prototype keys are not synonyms.
  assert.equal(closest('constructor', ['action'], { synonyms }), undefined);
});

test('containment when the shorter word has at least 4 characters', () => {
  assert.equal(closest('length', ['max_length', 'pattern']), 'max_length');
  assert.equal(closest('dir', ['list_directory']), undefined);
});

test('nothing close gives undefined', () => {
  assert.equal(closest('zzzz', ON_ERROR), undefined);
  assert.equal(closest('a', ['b', 'c']), undefined);
  assert.equal(closest('', ON_ERROR), undefined);
  assert.equal(closest('anything', []), undefined);
});

test('maxDistance overrides the default threshold', () => {
  assert.equal(closest('acton', ['action'], { maxDistance: 0 }), undefined);
  assert.equal(closest('rtryCnt', ON_ERROR), undefined);
  assert.equal(closest('rtryCnt', ON_ERROR, { maxDistance: 3 }), 'retryCount');
});

test('ranking and tie-breaking are deterministic and case-aware', () => {
  // Same distance ignoring case: the candidate that also matches case wins.
  assert.equal(closest('Tool', ['TOOL', 'Tool2', 'tool']), 'tool');
  // Order of candidates does not matter.
  const a = closestN('cat', ['bat', 'hat', 'rat', 'car'], 4);
  const b = closestN('cat', ['rat', 'car', 'hat', 'bat'], 4);
  assert.deepEqual(a, b);
  assert.deepEqual(a, ['bat', 'car', 'hat', 'rat']);
  // Exact beats everything, edit distance beats containment.
  assert.deepEqual(closestN('write', ['write_file', 'wrote', 'write'], 3), ['write', 'wrote', 'write_file']);
  assert.deepEqual(closestN('write', ['write'], 0), []);
  // Duplicates are reported once.
  assert.deepEqual(closestN('wirte', ['write', 'write'], 5), ['write']);
});
