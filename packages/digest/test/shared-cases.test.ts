import { describe, expect, it } from 'vitest';
import { sharedCases, sharedCasesText } from '../src/index.ts';
import { result } from './run-fixtures.ts';

describe('the comparison with live on the cases both ran', () => {
  it('counts each side on the shared cases only, and says what differs', () => {
    const results = [
      ...Array.from({ length: 10 }, (_, i) => result({ case_id: `case_${i}`, baseline: i < 9 ? 'pass' : 'fail' })),
      result({ case_id: 'case_new_1', verdict: 'fail', graded: 'fail', baseline: null }),
      result({ case_id: 'case_new_2', baseline: null }),
    ];
    const shared = sharedCases({ cases: 12 }, results, { cases: 10 });
    expect(shared).toMatchObject({ shared: 10, added: 2, dropped: 0, thisRun: { pass: 10, fail: 0 }, baseline: { pass: 9, fail: 1 } });
    expect(sharedCasesText(shared)).toBe('12 cases here, 10 in live: compared on the 10 both ran; 2 new.');
  });

  it('says so when the sets are the same, and when live ran cases this run did not', () => {
    const same = sharedCases({ cases: 2 }, [result(), result({ case_id: 'case_02' })], { cases: 2 });
    expect(sharedCasesText(same)).toBe('Compared on the 2 cases both ran.');
    const fewer = sharedCases({ cases: 1 }, [result()], { cases: 3 });
    expect(sharedCasesText(fewer)).toBe('1 case here, 3 in live: compared on the 1 both ran; 2 only in live.');
  });
});
