import { useState } from 'preact/hooks';
import { api, apiText } from '../api';
import { saveFile } from '../download';
import { DayFigures } from '../components/DayFigures';
import { Outcome } from '../components/Outcome';
import { Page } from '../components/Page';
import { addDays, utcDay } from '../format';
import { useAction, useLoad } from '../hooks';
import { MAX_REPORT_DAYS, type AdminKiosk, type KioskDay } from '../types';

const REPORT_PATH = '/admin/reports/kiosk-days';

interface Report {
  from: string;
  to: string;
  kioskId: string;
  rows: KioskDay[];
}

export default function Reports() {
  const today = utcDay(new Date());
  const [from, setFrom] = useState(addDays(today, -29));
  const [to, setTo] = useState(today);
  const [kioskId, setKioskId] = useState('');
  const [report, setReport] = useState<Report | undefined>();
  const kiosks = useLoad(() => api<{ kiosks: AdminKiosk[] }>('/admin/kiosks').then((answer) => answer.kiosks), []);
  const show = useAction();
  const download = useAction();
  const query = { from, to, kioskId };

  return (
    <Page title="Reports">
      <form
        class="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          show.run(async () => {
            const { rows } = await api<{ rows: KioskDay[] }>(REPORT_PATH, { query });
            setReport({ ...query, rows });
            return `Report from ${from} to ${to}: ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}.`;
          });
        }}
      >
        <p class="hint" id="range-hint">
          UTC days, both included; at most {MAX_REPORT_DAYS} days.
        </p>
        <div class="filters">
          <div class="field">
            <label for="report-from">From</label>
            <input
              id="report-from"
              type="date"
              value={from}
              aria-describedby="range-hint"
              onInput={(event) => setFrom(event.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="report-to">To</label>
            <input
              id="report-to"
              type="date"
              value={to}
              aria-describedby="range-hint"
              onInput={(event) => setTo(event.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="report-kiosk">Kiosk</label>
            <select id="report-kiosk" value={kioskId} onChange={(event) => setKioskId(event.currentTarget.value)}>
              <option value="">All kiosks</option>
              {(kiosks.data ?? []).map((kiosk) => (
                <option key={kiosk.id} value={kiosk.id}>
                  {kiosk.name} ({kiosk.id})
                </option>
              ))}
            </select>
          </div>
        </div>
        {kiosks.error && (
          <Outcome outcome={{ kind: 'alert', text: `The kiosks could not be listed: ${kiosks.error}` }} />
        )}
        <div class="actions">
          <button type="submit" disabled={show.busy}>
            Show report
          </button>
          <button
            type="button"
            class="secondary"
            disabled={download.busy}
            onClick={() =>
              download.run(async () => {
                const csv = await apiText(REPORT_PATH, { ...query, format: 'csv' });
                const name = `kiosk-report-${from}-${to}.csv`;
                saveFile(name, csv, 'text/csv;charset=utf-8');
                return `Downloaded ${name}.`;
              })
            }
          >
            Download CSV
          </button>
        </div>
        <Outcome outcome={show.outcome} />
        <Outcome outcome={download.outcome} />
      </form>
      {report && (
        <section>
          <DayFigures
            caption="Report"
            rows={report.rows}
            from={report.from}
            to={report.to}
            perKiosk={report.kioskId === ''}
            collapsed={false}
          />
        </section>
      )}
    </Page>
  );
}
