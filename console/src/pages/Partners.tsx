import { api } from '../api';
import { ApiKeys } from '../components/ApiKeys';
import { ListTable, type Column } from '../components/DataTable';
import { Page } from '../components/Page';
import { RecordForm, useRecordEditor } from '../components/RecordEditor';
import { useLoad } from '../hooks';
import type { Partner } from '../types';

const emptyForm: Partner = { id: '', name: '' };

const storePartner = (form: Partner): Promise<Partner> =>
  api<{ partner: Partner }>('/admin/partners', { method: 'POST', body: { id: form.id.trim(), name: form.name } }).then(
    (answer) => answer.partner,
  );

/** Partners who honour vouchers (§12): the list, a partner created or renamed, and its keys. */
export default function Partners() {
  const partners = useLoad(() => api<{ partners: Partner[] }>('/admin/partners').then((answer) => answer.partners), []);
  const editor = useRecordEditor('partner', emptyForm, storePartner, partners.reload);
  const editing = editor.editing;

  const columns: Column<Partner>[] = [
    { header: 'Name', cell: (partner) => partner.name, sortValue: (partner) => partner.name, rowHeader: true },
    { header: 'Id', cell: (partner) => partner.id, sortValue: (partner) => partner.id },
    {
      header: 'Action',
      cell: (partner) => (
        <button type="button" class="secondary" onClick={() => editor.open(partner)}>
          Edit {partner.name}
        </button>
      ),
    },
  ];

  return (
    <Page title="Partners">
      <p>The cafés and cinemas that honour vouchers, each with its own API keys to check and use them.</p>
      <RecordForm
        editor={editor}
        exampleId="kaffee-alex"
        after={
          editing &&
          !editing.isNew && (
            <ApiKeys
              path={`/admin/partners/${encodeURIComponent(editing.form.id)}`}
              keyOf={(answer) => answer.key}
              storeWhere="in the partner's till"
              revokedMeans="the partner using it can no longer check or use vouchers until it gets a new key"
            />
          )
        }
      />
      <ListTable caption="Partners" columns={columns} list={partners} rowKey="id" empty="No partners yet." />
    </Page>
  );
}
