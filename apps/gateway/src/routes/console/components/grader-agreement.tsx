import { type GraderAgreementListView, needsCare, percent } from '@svc/domain';

/**
 * Each grader measured against people: how many of its results they reviewed, how often they agreed (with the
 * interval that says how sure that is) and each way they did not. A grader to read with care is marked.
 */
export function GraderAgreement({ agreement }: { agreement: GraderAgreementListView }) {
  const { days, graders } = agreement;
  return (
    <section aria-labelledby="graders-heading">
      <h2 id="graders-heading">Graders against people</h2>
      {graders.length ? (
        <table className="stacked graders">
          <thead>
            <tr>
              <th>Grader</th>
              <th>Reviewed</th>
              <th>Agreement (95 % CI)</th>
              <th>Passed, person failed</th>
              <th>Failed, person passed</th>
            </tr>
          </thead>
          <tbody>
            {graders.map((g) => (
              <tr key={g.grader}>
                <td>
                  <code>{g.grader}</code>
                  {needsCare(g) && <span className="badge care">read with care</span>}
                </td>
                <td data-label="Reviewed">{g.reviewed}</td>
                <td data-label="Agreement (95 % CI)">
                  {percent(g.agreement)} % ({percent(g.interval.low)}–{percent(g.interval.high)} %)
                </td>
                <td data-label="Passed, person failed">{g.grader_pass_person_fail}</td>
                <td data-label="Failed, person passed">{g.grader_fail_person_pass}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="muted">
        {graders.length ? 'Over' : 'No reviews yet: counted are'} the results people gave a Pass or Fail in the last {days} days, whether it
        overrode the grader or agreed with it.
      </p>
    </section>
  );
}
