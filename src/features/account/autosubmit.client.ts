/** Carrier hand-over pages: a form marked `data-autosubmit` is sent at once (without JavaScript its button does it). */
document.querySelector<HTMLFormElement>('form[data-autosubmit]')?.requestSubmit()
