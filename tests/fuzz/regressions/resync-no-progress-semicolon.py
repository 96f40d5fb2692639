x
;
