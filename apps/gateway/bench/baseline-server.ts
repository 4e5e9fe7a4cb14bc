// The benchmark's baseline: a bare express app answering a JSON POST, on BASELINE_PORT.
import express from 'express';

const app = express();
app.use(express.json());
app.post('/echo', (req, res) => {
  res.status(201).json({ received: req.body as unknown });
});
app.listen(Number(process.env.BASELINE_PORT), '127.0.0.1');
