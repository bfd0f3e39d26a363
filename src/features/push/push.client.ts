/**
 * /setting/push "Notifications on this device": subscribes this browser to Web Push through the service worker
 * (public/sw.js, the viewer's registration, scope /viewer/) and stores the subscription (POST
 * /api/v1/app/push/subscription), or removes both (DELETE). The permission prompt comes only from the button's click.
 */
import { api } from '../session/api.ts'

/** A refusal the server explains in the reader's language (e.g. the 11th device, issue 34 point 4): its message is shown. */
class Explained extends Error {}

export type PushDeviceLabels = {
  turnOn: string
  turnOff: string
  working: string
  subscribed: string
  unsubscribed: string
  denied: string
  unsupported: string
  failed: string
}

const SCOPE = '/viewer/'
const root = document.querySelector<HTMLElement>('[data-push-device]')
if (root) start(root)

function start(root: HTMLElement) {
  const labels = JSON.parse(root.dataset.labels!) as PushDeviceLabels
  const key = root.dataset.key ?? ''
  const button = root.querySelector<HTMLButtonElement>('[data-push-toggle]')!
  const status = root.querySelector<HTMLElement>('[data-push-status]')!
  const supported = key !== '' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  if (!supported) {
    root.querySelector<HTMLElement>('[data-js-off]')!.textContent = labels.unsupported
    return
  }
  root.querySelector<HTMLElement>('[data-js-off]')!.hidden = true
  root.querySelector<HTMLElement>('[data-js-on]')!.hidden = false

  let on = false
  let busy = false
  const show = (subscribed: boolean, text: string) => {
    on = subscribed
    busy = false
    button.textContent = subscribed ? labels.turnOff : labels.turnOn
    button.removeAttribute('aria-disabled') // aria-disabled rather than disabled: the button keeps the focus
    status.textContent = text
  }

  void navigator.serviceWorker
    .getRegistration(SCOPE)
    .then((reg) => reg?.pushManager.getSubscription())
    .then((sub) => sub && show(true, labels.subscribed))

  button.addEventListener('click', () => {
    if (busy) return
    busy = true
    button.setAttribute('aria-disabled', 'true')
    status.textContent = labels.working
    ;(on ? turnOff() : turnOn(key)).then(
      (result) => show(result === 'on', labels[result === 'on' ? 'subscribed' : result === 'off' ? 'unsubscribed' : 'denied']),
      (e: unknown) => show(on, e instanceof Explained ? e.message : labels.failed),
    )
  })
}

async function turnOn(key: string): Promise<'on' | 'denied'> {
  if ((await Notification.requestPermission()) !== 'granted') return 'denied'
  const reg = await activeRegistration()
  const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
  try {
    await send('POST', sub.toJSON())
  } catch (e) {
    await sub.unsubscribe() // not stored: this browser is not left subscribed at its push service
    throw e
  }
  return 'on'
}

async function turnOff(): Promise<'off'> {
  const sub = await (await navigator.serviceWorker.getRegistration(SCOPE))?.pushManager.getSubscription()
  if (sub) {
    await send('DELETE', { endpoint: sub.endpoint })
    await sub.unsubscribe()
  }
  return 'off'
}

async function send(method: 'POST' | 'DELETE', body: unknown) {
  const res = await api('/app/push/subscription', { method, body })
  if (res.ok) return
  throw res.message ? new Explained(res.message) : new Error(`push subscription ${res.code}`) // docs/API.md: messages are shown as they are
}

/** The service worker's registration once it is active (subscribing needs an active worker). */
async function activeRegistration(): Promise<ServiceWorkerRegistration> {
  const reg = await navigator.serviceWorker.register('/sw.js', { scope: SCOPE })
  const worker = reg.installing ?? reg.waiting
  if (!reg.active && worker)
    await new Promise<void>((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()))
  return reg
}
