import { useState } from 'preact/hooks';
import { api, apiText } from '../api';
import { saveFile } from '../download';
import { ActionForm } from '../components/ActionForm';
import { DayFigures } from '../components/DayFigures';
import { SelectField, TextField } from '../components/Field';
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
      <ActionForm
        action={show}
        submitLabel="Show report"
        onSubmit={() =>
          show.run(async () => {
            const { rows } = await api<{ rows: KioskDay[] }>(REPORT_PATH, { query });
            setReport({ ...query, rows });
            return `Report from ${from} to ${to}: ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}.`;
          })
        }
        buttons={
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
        }
      >
        <p class="hint" id="range-hint">
          UTC days, both included; at most {MAX_REPORT_DAYS} days.
        </p>
        <div class="filters">
          <TextField
            id="report-from"
            label="From"
            type="date"
            inRow
            describedBy="range-hint"
            value={from}
            onValue={setFrom}
          />
          <TextField id="report-to" label="To" type="date" inRow describedBy="range-hint" value={to} onValue={setTo} />
          <SelectField
            id="report-kiosk"
            label="Kiosk"
            inRow
            choices={[
              { value: '', label: 'All kiosks' },
              ...(kiosks.data ?? []).map((kiosk) => ({ value: kiosk.id, label: `${kiosk.name} (${kiosk.id})` })),
            ]}
            value={kioskId}
            onValue={setKioskId}
          />
        </div>
        {kiosks.error && (
          <Outcome outcome={{ kind: 'alert', text: `The kiosks could not be listed: ${kiosks.error}` }} />
        )}
      </ActionForm>
      <Outcome outcome={download.outcome} />
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
