"""Studies over many deals: win-rate estimates (winrate), their process and Dask runners
(runners), reports and plots (report), graded winnable deals (deal_book), the results store,
seed ranges, statistics."""
