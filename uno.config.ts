import { defineConfig, presetWind3 } from 'unocss'

export default defineConfig({
  presets: [presetWind3()],
  theme: {
    colors: { primary: 'var(--c-primary)', onprimary: 'var(--c-on-primary)' },
  },
})
