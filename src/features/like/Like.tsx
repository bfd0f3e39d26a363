/**
 * An episode's like button (issue 37 point 3), at the end of each episode in the viewer: a plain form (no JavaScript
 * needed: `POST /api/v1/viewer/web/like`, back to `#like-{id}`, a guest to sign in) that the island turns into a toggle
 * (`aria-pressed`): the count moves at once and comes back with the reader's message if the server refuses it.
 */
import { useState, type FormEvent } from 'react'
import { Icon } from '../../components/Icon.tsx'
import { api } from '../session/api.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'

export type LikeLabels = {
  /** "{count} J’aime" */
  likeCount: Plural
  /** The action, for screen readers ("Aimer cet épisode"). */
  likeAction: string
  likeFailed: string
}

type Props = {
  episodeId: number
  likes: number
  liked: boolean
  signedIn: boolean
  labels: LikeLabels
  /** A refusal of the form sent without JavaScript, in the reader's language. */
  error?: string | null
  announce: (message: string) => void
  /** Told the state each answer leaves, so a button drawn again (an episode joining below moves it) starts from it. */
  onSettled: (state: { liked: boolean; likes: number }) => void
}

export default function Like({ episodeId, signedIn, labels, error, announce, onSettled, ...initial }: Props) {
  const [state, setState] = useState({ liked: initial.liked, likes: initial.likes })
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent) => {
    // a guest's form goes to the server, which sends them to sign in and back here
    if (!signedIn) return
    e.preventDefault()
    if (busy) return
    const before = state
    const on = !state.liked
    setState({ liked: on, likes: Math.max(0, state.likes + (on ? 1 : -1)) })
    setBusy(true)
    const res = await api<{ liked: boolean; likes: number }>(`/viewer/${episodeId}/like`, { method: on ? 'PUT' : 'DELETE' })
    setBusy(false)
    const settled = res.ok ? { liked: res.data.liked, likes: res.data.likes } : before
    setState(settled)
    onSettled(settled)
    if (!res.ok) announce(res.message ?? labels.likeFailed)
  }
  return (
    <form id={`like-${episodeId}`} className="viewer-like" method="post" action="/api/v1/viewer/web/like" onSubmit={(e) => void submit(e)}>
      <input type="hidden" name="episodeId" value={episodeId} />
      <input type="hidden" name="liked" value={state.liked ? '0' : '1'} />
      <button type="submit" className="btn btn-secondary" aria-pressed={state.liked} aria-busy={busy || undefined} data-likes={state.likes}>
        <Icon name="heart" size={20} />
        <span className="sr-only">{labels.likeAction}, </span>
        {pluralText(labels.likeCount, state.likes)}
      </button>
      {error && <p role="alert">{error}</p>}
    </form>
  )
}
