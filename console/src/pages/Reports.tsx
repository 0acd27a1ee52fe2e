import { useState } from 'preact/hooks';
import { api, apiText } from '../api';
import { saveFile } from '../download';
import { ActionButton, ActionForm } from '../components/Actions';
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
          <ActionButton
            action={download}
            run={async () =>
              saveFile(
                `kiosk-report-${from}-${to}.csv`,
                await apiText(REPORT_PATH, { ...query, format: 'csv' }),
                'text/csv;charset=utf-8',
              )
            }
          >
            Download CSV
          </ActionButton>
        }
      >
        <p class="hint" id="range-hint">
          UTC days, both included; at most {MAX_REPORT_DAYS} days.
        </p>
        <div class="filters">
          <TextField label="From" type="date" describedBy="range-hint" value={from} onValue={setFrom} />
          <TextField label="To" type="date" describedBy="range-hint" value={to} onValue={setTo} />
          <SelectField
            label="Kiosk"
            emptyChoice="All kiosks"
            choices={(kiosks.data ?? []).map((kiosk) => ({ value: kiosk.id, label: `${kiosk.name} (${kiosk.id})` }))}
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
